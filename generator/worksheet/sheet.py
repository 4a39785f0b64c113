"""Any worksheet from what `load_worksheet` read: dice problems, or Klasse 1–4 topics."""

from __future__ import annotations

from generator.core.built import Built
from generator.worksheet.build import WorksheetInputs, WorksheetRequest, build_worksheet
from generator.worksheet.pool import Progress
from generator.worksheet.topicsheet import TopicInputs, build_topic_worksheet


def build_sheet(
    inputs: WorksheetInputs | TopicInputs, req: WorksheetRequest, progress: Progress | None = None
) -> Built:
    """The family worksheet, or the topic sheet when the inputs are topics."""
    if isinstance(inputs, TopicInputs):
        return build_topic_worksheet(req, inputs.roster, inputs.templates, inputs.spec)
    return build_worksheet(inputs, req, progress)
