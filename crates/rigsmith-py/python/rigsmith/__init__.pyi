"""Type stubs of rigsmith (see the module docstring for the conventions)."""
import os
from typing import Any, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str

class InputError(ValueError):
    """Bad input: a malformed file, invalid data, or something a stage cannot work on."""

PathLike = Union[str, os.PathLike[str]]
Arrays = Tuple[npt.ArrayLike, npt.ArrayLike]
Parts = Sequence[Union[Tuple[str, npt.ArrayLike, npt.ArrayLike], dict[str, Any]]]
CharacterIn = Union[PathLike, Arrays, Parts, npt.ArrayLike]
# Part roles told (``--body``, ``--garment``): names, or one comma-separated string.
Names = Union[str, Sequence[str], None]
# ``--rigid``: ``"PART"`` / ``"PART=BONE"`` strings, or ``{part: bone or None}``.
Rigid = Union[str, Sequence[str], dict[str, str | None], None]

def load(path: PathLike) -> dict[str, Any]:
    """Reads a character file into glTF space: parts (vertices n x 3 float32, faces m x 3
    int64, weights n x bones float32 or None), skeleton dict, bones, warnings, notes."""

def inspect(character: CharacterIn, faces: npt.ArrayLike | None = None) -> dict[str, Any]:
    """A quick look at a model (``rigsmith inspect --json``)."""

def fit(
    character: CharacterIn,
    faces: npt.ArrayLike | None = None,
    *,
    template: str = "auto",
    twist: int = 0,
    body: Names = None,
    garment: Names = None,
    rigid: Rigid = None,
) -> dict[str, Any]:
    """Fits a skeleton: ``{"skeleton": {"bones": [...]}, "checks": [...], "humanoid": {...}, "plan", "plan_why"}``;
    ``template``: auto (the body plan from the sections), game, basic, mixamo, vrm,
    quadruped, horse, wolf, cat or chain."""

@overload
def weights(
    vertices: npt.ArrayLike,
    faces: npt.ArrayLike,
    skeleton: dict[str, Any] | str | PathLike,
    *,
    max_influences: int = 4,
    route: str | None = None,
    report: bool = False,
    body: Names = None,
    garment: Names = None,
    rigid: Rigid = None,
) -> np.ndarray: ...
@overload
def weights(
    vertices: PathLike | Parts,
    faces: None = None,
    skeleton: dict[str, Any] | str | PathLike | None = None,
    *,
    max_influences: int = 4,
    route: str | None = None,
    report: bool = False,
    body: Names = None,
    garment: Names = None,
    rigid: Rigid = None,
) -> dict[str, np.ndarray]: ...

def rig(
    character: CharacterIn,
    faces: npt.ArrayLike | None = None,
    *,
    template: str = "auto",
    max_influences: int = 4,
    rerig: bool = False,
    route: str | None = None,
    height: float | None = None,
    output: PathLike | None = None,
    keep_origin: bool = False,
    control: bool = False,
    body: Names = None,
    garment: Names = None,
    rigid: Rigid = None,
) -> dict[str, Any]:
    """The whole job: the rigged character (as ``load``) plus ``report``, ``written``
    and ``control_script`` (the Blender script of the control rig, with ``control``)."""

def check(
    character: PathLike | dict[str, Any] | CharacterIn,
    faces: npt.ArrayLike | None = None,
    *,
    skeleton: dict[str, Any] | str | PathLike | None = None,
    weights: npt.ArrayLike | Sequence[npt.ArrayLike | None] | None = None,
    max_influences: int = 4,
    sheets: PathLike | None = None,
    fixes: bool = True,
    body: Names = None,
    garment: Names = None,
    rigid: Rigid = None,
) -> dict[str, Any]:
    """The rubric check (``rigsmith check --json``) of a rigged file, a rig dict, or
    arrays with a skeleton and weights; ``sheets``: a folder for the review sheets
    (their paths under ``"sheets"``)."""

def simulate(character: CharacterIn, *, motion: str = "walk", seconds: float = 3.0) -> dict[str, Any]:
    """Spring-bone secondary motion (``rigsmith simulate --json``)."""

def fix_weights(
    vertices: npt.ArrayLike,
    weights: npt.ArrayLike,
    skeleton: dict[str, Any] | str | PathLike,
    *,
    faces: npt.ArrayLike | None = None,
    limit: float = 0.001,
    max_influences: int | None = 4,
    normalize: bool = True,
    strip_opposite_side: bool = True,
    mirror: str | None = None,
    smooth: int = 0,
    smooth_factor: float = 0.5,
    smooth_bones: Sequence[str] | None = None,
    vertex_mask: npt.ArrayLike | None = None,
) -> tuple[np.ndarray, dict[str, int]]:
    """Weight fixes as data: mirror, strip the opposite side, smooth (bones, vertex
    mask), clean (limit, max influences), normalize."""

def pose(
    vertices: npt.ArrayLike,
    weights: npt.ArrayLike,
    skeleton: dict[str, Any] | str | PathLike,
    rotations: dict[str, Sequence[float]],
) -> np.ndarray:
    """Linear blend skinning of one part in a pose (bone-local quaternions w, x, y, z)."""
