"""The coach page: boxes filled so far and a roll → every keep or box with its expected score.

The same position and the same checks as `dicesheets kniffel advise` (its
`--filled`, `--roll`, `--rolls-left`, `--rules`, `--joker`), answered from the
solved table kept warm in the pool's workers.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from generator.core.errors import InputError, Msg
from generator.web.errors import field_errors
from generator.web.pages import page_lang, render
from generator.web.products import Job

JOKERS = ("none", "free", "forced")
# the coach's fields are the inputs of `kniffel advise`'s position and roll; the upper sum
# is taken from the boxes filled (an error about it is shown at the boxes)
FIELDS = ("filled", "roll", "rolls_left", "rules", "joker")
OWN_FIELD = {"upper": "filled"}
LANG_RULES = {"en": "yahtzee", "de": "kniffel"}  # the rule set a fresh page starts on


@cache
def boxes(rules_id: str, catalog: Any) -> list[dict[str, Any]]:
    """The rule set's boxes with the points each can hold (the menus of the form)."""
    from generator.kniffel.load import load_rules
    from generator.kniffel.scoring import possible_scores

    rules = load_rules(rules_id, catalog)
    return [
        {
            "id": c.id,
            "label": c.label,
            "section": c.section,
            "scores": sorted(possible_scores(c, rules)),
        }
        for c in rules.boxes
    ]


def coach_params(values: dict[str, str], rule_names: list[str], catalog: Any) -> dict[str, Any]:
    """The advise parameters of a submitted coach form (unknown menus fall back to the first)."""
    rules = values.get("rules") if values.get("rules") in rule_names else rule_names[0]
    joker = values.get("joker") if values.get("joker") in JOKERS else None
    filled = [
        f"{box['id']}={values[box['id']]}"
        for box in boxes(rules, catalog)
        if values.get(box["id"], "").strip()
    ]
    dice = [values.get(f"die{i}", "").strip() for i in range(1, 6)]
    rolls = values.get("rolls_left", "2").strip()
    return {
        "rules": rules,
        "joker": joker,
        "filled": ",".join(filled),
        "roll": " ".join(d or "?" for d in dice),
        "rolls_left": int(rolls) if rolls.isascii() and rolls.isdigit() else -1,
    }


async def text_fields(request: Request) -> dict[str, str]:
    form = await request.form(max_fields=60, max_files=0)
    return {k: v for k, v in form.items() if isinstance(v, str)}


def coach_routes(context: dict[str, Any]) -> list[Route]:
    execute = context["execute"]
    base = context["base"]
    catalog = context["catalog"]
    rule_names = catalog.names("kniffel")

    def page_values(values: dict[str, str], lang: str) -> dict[str, str]:
        # the English coach starts on Yahtzee, the German one on Kniffel
        rules = LANG_RULES.get(lang, "")
        shown = {"rules": rules if rules in rule_names else rule_names[0]}
        shown.update({"joker": "", "rolls_left": "2"})
        shown.update({f"die{i}": str(d) for i, d in enumerate((1, 3, 3, 4, 6), start=1)})
        shown.update(values)
        return shown

    async def advise(
        values: dict[str, str], lang: str
    ) -> tuple[dict[str, Any] | None, dict[str, str]]:
        rules = {"rules": page_values({}, lang)["rules"]}  # a form without rules: the page's
        params = coach_params({**rules, **values}, rule_names, catalog)
        if params["rolls_left"] == -1:
            error = InputError("rolls_left", Msg("rolls_left_bare"))
        else:
            result = await execute(Job("coach", params, "advise"))
            if result.error is None:
                return result.figures, {}
            error = result.error
        shown = field_errors(error, FIELDS + tuple(OWN_FIELD), lang)
        return None, {OWN_FIELD.get(k or "", k or ""): v for k, v in shown.items()}

    def table(lang: str, advice: dict[str, Any] | None) -> str:
        if advice is None:
            return ""
        labels = {b["id"]: b["label"][lang] for b in boxes(advice["rules"], catalog)}
        return render("coach_table.html", lang, advice=advice, labels=labels)

    def html(
        request: Request,
        values: dict[str, str],
        advice: Any,
        errors: dict[str, str],
        status: int = 200,
    ) -> HTMLResponse:
        lang = page_lang(request)
        shown = page_values(values, lang)
        rules = shown["rules"] if shown["rules"] in rule_names else rule_names[0]
        body = render(
            "coach.html",
            lang,
            values=shown,
            rule_names=rule_names,
            jokers=JOKERS,
            boxes=boxes(rules, catalog),
            errors=errors,
            table=table(lang, advice),
            **{**base(request, "coach"), "lang_form": "coach-form", "lang_switch_name": "lang"},
        )
        return HTMLResponse(body, status)

    def query_values(request: Request) -> dict[str, str]:
        """The position an address holds (the page keeps it there: a reload, Back, a link)."""
        query = request.query_params
        rules = query.get("rules") if query.get("rules") in rule_names else None
        known = {"rules", "joker", "rolls_left", *(f"die{i}" for i in range(1, 6))}
        rules = rules or page_values({}, page_lang(request))["rules"]
        known |= {box["id"] for box in boxes(rules, catalog)}
        return {k: v for k, v in query.items() if k in known}

    async def show(request: Request) -> Response:
        lang = page_lang(request)
        values = page_values(query_values(request), lang)
        advice, errors = await advise(values, lang)
        return html(request, values, advice, errors)

    async def submit(request: Request) -> Response:
        values = await text_fields(request)
        advice, errors = await advise(values, page_lang(request))
        return html(request, values, advice, errors, 400 if errors else 200)

    async def api(request: Request) -> Response:
        lang = page_lang(request)
        values = await text_fields(request)
        advice, errors = await advise(values, page_lang(request))
        if errors:
            return JSONResponse({"ok": False, "errors": errors}, 400)
        return JSONResponse({"ok": True, "html": table(lang, advice), "advice": advice})

    return [
        Route("/coach", show, methods=["GET"]),
        Route("/coach", submit, methods=["POST"]),
        Route("/api/coach", api, methods=["POST"]),
    ]
