import os
from pathlib import Path
from typing import Any

MODEL_EXTS: tuple[str, ...]

def batch_inputs(folder: str | os.PathLike[str]) -> tuple[list[Path], list[tuple[Path, str]]]: ...
def rig_one(input_path: str, output_path: str, options: dict[str, Any]) -> dict[str, Any]: ...
def rig_library(
    input_dir: str | os.PathLike[str],
    output_dir: str | os.PathLike[str],
    *,
    retries: int = 1,
    threads: int = 1,
    **options: Any,
) -> dict[str, Any]: ...
