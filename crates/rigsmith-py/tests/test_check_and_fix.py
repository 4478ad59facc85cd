"""`check` from arrays and from rig dicts (the file's report, the CLI's sheets),
`fix_weights` as data (mirror, smoothing on bones and a vertex mask, clean, normalize),
and the control rig's Blender script from `rig`."""
import json

import numpy as np
import pytest

import rigsmith
from conftest import run_cli


@pytest.fixture(scope="module")
def rigged(tmp_path_factory, mannequin):
    """The mannequin rigged by the package into a file, and the returned rig."""
    d = tmp_path_factory.mktemp("rigged")
    out = rigsmith.rig(mannequin, output=d / "rigged.glb")
    return d / "rigged.glb", out


def verdicts(report):
    return {c["id"]: c["passed"] for c in report["checks"]}


def test_check_of_a_rig_dict_and_of_arrays_equals_check_of_the_file(rigged):
    path, out = rigged
    # A dict or arrays carry no sidecar: the file is checked here without the fixes its
    # sidecar names (the mask and the correctives).
    from_file = rigsmith.check(path, fixes=False)
    from_dict = rigsmith.check(out)
    parts = [(p["name"], p["vertices"], p["faces"]) for p in out["parts"]]
    from_arrays = rigsmith.check(parts, skeleton=out["skeleton"], weights=[p["weights"] for p in out["parts"]])
    assert from_dict["counts"] == from_file["counts"] == from_arrays["counts"]
    assert verdicts(from_dict) == verdicts(from_arrays)
    # The file also carries the face's shape keys, which arrays do not: its check has
    # theirs besides.
    file_only = set(verdicts(from_file)) - set(verdicts(from_dict))
    assert file_only <= {"face.morphs_move"}, file_only
    assert {k: v for k, v in verdicts(from_file).items() if k not in file_only} == verdicts(from_dict)
    # The file stores the same weights (f32) and the bones as node transforms (an
    # elbow's out-of-plane angle reads 0.02 deg instead of 0): the measured values agree
    # within 0.05 units (deg, % of H...) plus 0.1%.
    by_id = {c["id"]: c for c in from_file["checks"]}
    excess, worst = max((abs(a["value"] - by_id[a["id"]]["value"]) - 1e-3 * abs(by_id[a["id"]]["value"]), a["id"])
                        for a in from_dict["checks"])
    print(f"largest difference of a measured value beyond 0.1%, arrays vs file: {excess:.2e} ({worst})")
    assert excess <= 0.05
    assert from_file["sheets"] == []


def test_check_of_one_part_takes_vertices_faces_skeleton_and_weights(rigged):
    _, out = rigged
    body = out["parts"][0]
    r = rigsmith.check(body["vertices"], body["faces"], skeleton=out["skeleton"], weights=body["weights"])
    assert r["checks"] and set(r["counts"]) == {"blocker", "major", "minor"}
    # Columns follow the caller's bone order: a shuffled skeleton with shuffled columns
    # is the same rig.
    perm = np.random.default_rng(3).permutation(len(out["bones"]))
    skel = {"bones": [out["skeleton"]["bones"][i] for i in perm]}
    r2 = rigsmith.check((body["vertices"], body["faces"]), skeleton=skel, weights=body["weights"][:, perm])
    assert verdicts(r2) == verdicts(r) and r2["counts"] == r["counts"]


def test_a_broken_rig_given_as_arrays_fails_its_weight_checks(rigged):
    """Positive control: unweighted vertices make the weight checks fire."""
    _, out = rigged
    body = out["parts"][0]
    W = body["weights"].copy()
    W[: len(W) // 3] = 0.0
    good = rigsmith.check(body["vertices"], body["faces"], skeleton=out["skeleton"], weights=body["weights"])
    bad = rigsmith.check(body["vertices"], body["faces"], skeleton=out["skeleton"], weights=W)
    fired = [c["id"] for c in bad["checks"] if not c["passed"] and verdicts(good).get(c["id"], False)]
    print("checks fired by a third of the body unweighted:", fired)
    assert any("unweighted" in i for i in fired)
    assert bad["counts"]["blocker"] > good["counts"]["blocker"]


def test_check_writes_the_sheets_the_cli_writes(rigged, tmp_path):
    path, _ = rigged
    r = rigsmith.check(path, sheets=tmp_path / "py")
    names = sorted(p.rsplit("/", 1)[-1] for p in r["sheets"])
    assert "placement.png" in names and "poses.png" in names
    run_cli("check", path, "--sheets", tmp_path / "cli", "-q")
    for n in names:
        mine = (tmp_path / "py" / n).read_bytes()
        assert mine[:8] == b"\x89PNG\r\n\x1a\n"
        assert mine == (tmp_path / "cli" / n).read_bytes(), n


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"weights": np.zeros((5, 2))}, "weights: expected shape"),
        ({"weights": "nope"}, "weights: dtype"),
        ({"weights": None}, "weights: no part has weights"),
        ({"weights": "nan"}, "weights: holds NaN"),
        ({"skeleton": None}, "skeleton: required"),
    ],
)
def test_bad_check_arrays_are_value_errors_naming_the_argument(rigged, kwargs, message):
    _, out = rigged
    body = out["parts"][0]
    args = {"skeleton": out["skeleton"], "weights": body["weights"]}
    args.update(kwargs)
    if isinstance(args["weights"], str) and args["weights"] == "nan":
        args["weights"] = body["weights"].copy()
        args["weights"][7, 0] = np.nan
    with pytest.raises(ValueError) as e:
        rigsmith.check(body["vertices"], body["faces"], **args)
    assert str(e.value).startswith(message), str(e.value)


def test_a_file_checked_with_arrays_is_refused(rigged):
    path, out = rigged
    with pytest.raises(ValueError, match="^skeleton: given with a file path"):
        rigsmith.check(path, skeleton=out["skeleton"])


SKEL = {"bones": [
    {"name": "spine", "parent": None, "head": [0, 0, 0], "tail": [0, 1, 0]},
    {"name": "arm.L", "parent": "spine", "head": [0.2, 1, 0], "tail": [0.5, 1, 0]},
    {"name": "arm.R", "parent": "spine", "head": [-0.2, 1, 0], "tail": [-0.5, 1, 0]},
]}
# A strip of 3 x 2 vertices across the mid-plane (x = -0.4, 0, 0.4; y = 0.5, 1).
VS = np.array([[-0.4, 0.5, 0], [0, 0.5, 0], [0.4, 0.5, 0], [-0.4, 1, 0], [0, 1, 0], [0.4, 1, 0]], dtype=np.float32)
FS = np.array([[0, 1, 4], [0, 4, 3], [1, 2, 5], [1, 5, 4]])


def test_mirror_copies_the_left_side_onto_the_right_with_mirror_bones():
    W = np.array([
        [0.5, 0.5, 0.0], [1, 0, 0], [0.3, 0.7, 0],
        [0.0, 0.0, 1.0], [1, 0, 0], [0.1, 0.9, 0],
    ], dtype=np.float32)
    W2, info = rigsmith.fix_weights(VS, W, SKEL, mirror="left", strip_opposite_side=False)
    assert info["mirrored"] == 2 and info["unmatched"] == 0
    assert np.allclose(W2[0], [0.3, 0.0, 0.7]) and np.allclose(W2[3], [0.1, 0.0, 0.9])
    assert np.allclose(W2[[1, 2, 4, 5]], W[[1, 2, 4, 5]], rtol=0, atol=1e-7)
    W3, _ = rigsmith.fix_weights(VS, W, SKEL, mirror="right", strip_opposite_side=False)
    assert np.allclose(W3[2], [0.5, 0.0, 0.5]) and np.allclose(W3[5], [0.0, 1.0, 0.0])


def test_smoothing_changes_only_the_masked_vertices_and_the_named_bones():
    W = np.array([[1, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=np.float32)
    W2, info = rigsmith.fix_weights(VS, W, SKEL, faces=FS, smooth=2, smooth_factor=0.5,
                                    smooth_bones=["arm.L"], vertex_mask=[1], strip_opposite_side=False)
    assert info["smoothed"] == 1 and info["changed"] == 1
    assert 0.0 < W2[1, 1] < 0.5 and np.isclose(W2[1].sum(), 1.0)
    assert np.array_equal(np.delete(W2, 1, axis=0), np.delete(W, 1, axis=0))
    # Smoothing every deform bone on every vertex moves more, and keeps sums at 1.
    W3, info3 = rigsmith.fix_weights(VS, W, SKEL, faces=FS, smooth=1, strip_opposite_side=False)
    assert info3["smoothed"] >= 4 and np.allclose(W3.sum(axis=1), 1.0, atol=1e-6)


def test_the_clean_without_normalize_leaves_the_weight_it_dropped_missing():
    W = np.array([[0.6, 0.3, 0.1]] + [[1, 0, 0]] * 5, dtype=np.float32)
    W2, _ = rigsmith.fix_weights(VS, W, SKEL, max_influences=2, normalize=False, strip_opposite_side=False)
    assert np.allclose(W2[0], [0.6, 0.3, 0.0])
    W3, _ = rigsmith.fix_weights(VS, W, SKEL, max_influences=2, strip_opposite_side=False)
    assert np.allclose(W3[0], [2 / 3, 1 / 3, 0.0])
    W4, info = rigsmith.fix_weights(VS, W, SKEL, max_influences=None, limit=0.0, strip_opposite_side=False)
    assert np.allclose(W4, W) and info["changed"] == 0


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"smooth": 1}, "faces: required to smooth"),
        ({"mirror": "up"}, "mirror: must be"),
        ({"faces": FS, "smooth": 1, "smooth_bones": ["tail"]}, "smooth_bones: no bone named"),
        ({"vertex_mask": np.ones(4, dtype=bool)}, "vertex_mask: expected 6 booleans"),
        ({"vertex_mask": [9]}, "vertex_mask: an index is out of range"),
        ({"smooth_factor": 2.0}, "smooth_factor: must be in"),
        ({"max_influences": 0}, "max_influences: must be"),
    ],
)
def test_bad_fix_arguments_are_value_errors_naming_the_argument(kwargs, message):
    W = np.tile(np.array([[1, 0, 0]], dtype=np.float32), (6, 1))
    with pytest.raises(ValueError) as e:
        rigsmith.fix_weights(VS, W, SKEL, **kwargs)
    assert str(e.value).startswith(message), str(e.value)


def test_rig_with_control_writes_the_script_the_cli_writes(mannequin, tmp_path):
    out = rigsmith.rig(mannequin, control=True, output=tmp_path / "py.glb")
    script = out["control_script"]
    assert script and "RIG = json.loads" in script
    assert [p.rsplit("/", 1)[-1] for p in out["written"]] == ["py.glb", "py.rig.json", "py.control.py"]
    assert (tmp_path / "py.control.py").read_text() == script
    run_cli("rig", mannequin, "-o", tmp_path / "cli.glb", "--control", "-q")
    assert (tmp_path / "cli.control.py").read_text() == script
    ids = [c["id"] for c in out["report"]["checks"]["checks"]]
    assert any(i.startswith("control.") for i in ids), ids
    assert rigsmith.rig(mannequin)["control_script"] is None
