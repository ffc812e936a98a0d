"""Every fitted decision's file: read back as written, and a damaged one says how to refit it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.cell_decision import CellDecision, cell_decision
from vision.kept_decision import KeptDecision, kept_decision
from vision.median_kept import MedianKept, median_kept
from vision.median_strip import MedianModel, median_model
from vision.space_decision import SpaceDecision
from vision.street_lanes import LaneModel, lane_model

DECISIONS = [(MedianModel, median_model), (LaneModel, lane_model), (MedianKept, median_kept),
             (CellDecision, cell_decision), (KeptDecision, kept_decision)]


@pytest.mark.parametrize(("kind", "shipped"), DECISIONS, ids=lambda d: getattr(d, "__name__", ""))
def test_a_decision_survives_its_file_and_a_damaged_file_says_how_to_refit_it(
        tmp_path, kind: type[SpaceDecision], shipped) -> None:
    model = shipped()
    broken = tmp_path / "decision.json"
    broken.write_text("{")
    with pytest.raises(ValueError, match=kind.refit.split()[-1].split(".")[-1]):
        kind.load(broken)
    data = json.loads(kind.file.read_text())
    data["features"] = data["features"][:-1]
    broken.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="other evidence"):
        kind.load(broken)
    model.save(tmp_path / "decision.json")
    again = kind.load(tmp_path / "decision.json")
    assert (again.sure_bare, again.sure_tile, again.info) == (model.sure_bare, model.sure_tile, model.info)
    evidence = np.random.default_rng(0).normal(0.0, 1.0, (17, len(kind.features)))
    np.testing.assert_allclose(again.probability(evidence), model.probability(evidence))
