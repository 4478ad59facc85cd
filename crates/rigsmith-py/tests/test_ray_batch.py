"""rigsmith.batch.ray on a local Ray instance with 2 workers over 8 characters: the
files and summary.json that `rigsmith rig DIR` writes; a broken character is retried,
then recorded, and the others go on."""
import json
import shutil
from pathlib import Path

import pytest

import rigsmith
from conftest import ROOT, run_cli

ray = pytest.importorskip("ray", reason="ray is not installed (pip install ray; scripts/test-python.sh does)")

from rigsmith.batch.ray import rig_library  # noqa: E402


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """7 mannequins of different builds and poses, and one truncated FBX."""
    d = tmp_path_factory.mktemp("library")
    variants = [
        ["--pose", "t"], ["--pose", "a"], ["--height", "1.6"], ["--height", "1.9", "--pose", "a"],
        ["--head-scale", "1.5"], ["--no-shirt"], ["--arm-angle", "30", "--pose", "a"],
    ]
    for i, v in enumerate(variants):
        run_cli("mannequin", *v, "-o", d / f"m{i}.glb", "-q")
    fbx = (ROOT / "data" / "fbx" / "knight_KnightCharacter.fbx").read_bytes()
    (d / "broken.fbx").write_bytes(fbx[: len(fbx) // 2])
    (d / "notes.txt").write_text("not a character\n")
    return d


def test_a_library_rigs_on_ray_as_rig_dir_writes_it(library, tmp_path):
    # Workers at normal priority (Ray's default niceness 15 starves them on a busy machine).
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True,
             _system_config={"worker_niceness": 0})
    try:
        out = tmp_path / "rigged"
        summary = rig_library(library, out)
    finally:
        ray.shutdown()
    rows = {Path(r["input"]).name: r for r in summary["rigged"]}
    assert sorted(rows) == ["broken.fbx"] + [f"m{i}.glb" for i in range(7)]
    for i in range(7):
        r = rows[f"m{i}.glb"]
        assert r["error"] is None, r["error"]
        assert (out / f"m{i}.glb").is_file() and (out / f"m{i}.rig.json").is_file()
        assert r["route"] and r["seconds"] > 0
        rig = rigsmith.load(out / f"m{i}.glb")
        assert len(rig["bones"]) > 20
    bad = rows["broken.fbx"]
    assert not bad["ok"] and bad["output"] is None
    assert "truncated" in bad["error"]
    assert json.loads((out / "summary.json").read_text()) == summary
    assert summary["skipped"] == [{"path": str(library / "notes.txt"),
                                   "why": ".txt is not read (convert it to .glb, .gltf, .vrm, .obj or .fbx)"}]

    # The same rows as the CLI writes them (keys, and the broken file's message).
    one = tmp_path / "one"
    one.mkdir()
    shutil.copy(library / "broken.fbx", one / "broken.fbx")
    run_cli("rig", one, "-o", tmp_path / "cli", "-q")
    cli = json.loads((tmp_path / "cli" / "summary.json").read_text())
    assert set(cli["rigged"][0]) == set(bad)
    assert cli["rigged"][0]["error"].replace(str(one), str(library)) == bad["error"]


def test_a_tasks_keywords_reach_rig_and_a_part_it_lacks_fails_it_by_name(tmp_path):
    """The keywords rig_library passes on (here to one task, without Ray): rigid= makes
    the mannequin's shirt follow one bone; a garment= name that is no part fails the
    task with the parts listed, and nothing is written."""
    src = tmp_path / "m.glb"
    run_cli("mannequin", "-o", src, "-q")
    from rigsmith.batch.ray import rig_one

    row = rig_one(str(src), str(tmp_path / "rigid.glb"), {"rigid": {"shirt": "spine_03"}})
    assert row["ok"] and row["error"] is None, row
    rig = rigsmith.load(tmp_path / "rigid.glb")
    names = rig["bones"]
    shirt = next(p for p in rig["parts"] if p["name"] == "shirt")
    w = shirt["weights"]
    assert (w[:, names.index("spine_03")] > 0.999).all(), w.max(0)

    with pytest.raises(rigsmith.InputError) as e:
        rig_one(str(src), str(tmp_path / "bad.glb"), {"garment": ["Nope"]})
    assert 'no part or material named "Nope"' in str(e.value), e.value
    assert "shirt" in str(e.value), e.value
    assert not (tmp_path / "bad.glb").exists()
