"""The review in Blender: the rubric report as panel lines, the sheets as images.

``rigsmith.check`` writes the review sheets (placement, poses, flagged joints) as PNG
files; they are loaded into ``bpy.data.images`` as ``rigsmith_<name>`` and packed into
the .blend (so they survive the temporary folder), replacing the previous check's.
"""
import json
import os
import tempfile

import bpy

REPORT_TEXT = "rigsmith_report.json"
SHEET_PREFIX = "rigsmith_"
SHEETS = ("placement", "poses", "joints")


def store_report(context, report):
    """Keeps the report as the text block ``rigsmith_report.json`` and its counts on the
    scene (what the panel shows)."""
    text = bpy.data.texts.get(REPORT_TEXT) or bpy.data.texts.new(REPORT_TEXT)
    text.clear()
    text.write(json.dumps(report, indent=2))
    context.scene["rigsmith_counts"] = json.dumps(report.get("counts", {}))


def stored_report():
    """The last report kept in the scene, or None."""
    text = bpy.data.texts.get(REPORT_TEXT)
    if text is None:
        return None
    try:
        return json.loads(text.as_string())
    except ValueError:
        return None


def report_lines(report, limit=12):
    """The panel's lines for a report: the counts, then the failed checks (most severe
    first: severity, id, what was measured against the limit), then how many passed."""
    if not report:
        return []
    checks = report.get("checks") or []
    if isinstance(checks, dict):  # the rig's report holds the review's
        checks = checks.get("checks") or []
    k = report.get("counts") or {}
    lines = [f"failed: {k.get('blocker', 0)} blocker, {k.get('major', 0)} major, {k.get('minor', 0)} minor"]
    order = {"blocker": 0, "major": 1, "minor": 2}
    failed = sorted((c for c in checks if not c.get("passed", True)),
                    key=lambda c: (order.get(c.get("severity"), 3), c.get("id", "")))
    for c in failed[:limit]:
        lines.append(f"{c.get('severity', '')}: {c.get('id', '')}: {c.get('value', 0):.3g} "
                     f"{c.get('measure', '')} (limit {c.get('threshold', 0):.3g})"[:120])
    if len(failed) > limit:
        lines.append(f"... and {len(failed) - limit} more (text block {REPORT_TEXT})")
    lines.append(f"passed: {sum(1 for c in checks if c.get('passed', False))} of {len(checks)} checks")
    return lines


def check_with_sheets(rs, parts, skeleton, weights):
    """``rigsmith.check`` of arrays with the sheets, loaded as images; the report and the
    names of the images."""
    with tempfile.TemporaryDirectory(prefix="rigsmith-sheets-") as d:
        report = rs.check(parts, skeleton=skeleton, weights=weights, sheets=d)
        names = load_sheets(report.get("sheets") or [])
    report["sheets"] = names
    return report, names


def load_sheets(paths):
    """Loads PNG sheets as packed images ``rigsmith_<stem>`` (previous ones replaced,
    the old sheets of a check that flagged no joint removed); their image names."""
    for name in SHEETS:
        old = bpy.data.images.get(SHEET_PREFIX + name)
        if old is not None:
            bpy.data.images.remove(old)
    names = []
    for p in paths:
        img = bpy.data.images.load(p, check_existing=False)
        img.name = SHEET_PREFIX + os.path.splitext(os.path.basename(p))[0]
        img.pack()
        names.append(img.name)
    return names


def show_image(context, img):
    """Shows ``img`` in an Image Editor of the current screen (the largest other area
    is turned into one when there is none); False when there is no screen (Blender in
    the background)."""
    screen = getattr(context, "screen", None)
    if screen is None:
        return False
    areas = [a for a in screen.areas if a.type == "IMAGE_EDITOR"]
    if not areas:
        others = [a for a in screen.areas if a != context.area] or list(screen.areas)
        if not others:
            return False
        area = max(others, key=lambda a: a.width * a.height)
        area.type = "IMAGE_EDITOR"
        areas = [area]
    areas[0].spaces.active.image = img
    return True


class RIGSMITH_OT_show_sheet(bpy.types.Operator):
    """Open a review sheet of the last check in an Image Editor"""

    bl_idname = "rigsmith.show_sheet"
    bl_label = "Open sheet"

    name: bpy.props.StringProperty(name="Sheet", default="placement")

    def execute(self, context):
        img = bpy.data.images.get(SHEET_PREFIX + self.name)
        if img is None:
            self.report({"ERROR"}, f"no sheet {self.name!r}: run Check rig first")
            return {"CANCELLED"}
        if show_image(context, img):
            self.report({"INFO"}, f"{img.name}: {img.size[0]} x {img.size[1]}")
        else:
            self.report({"INFO"}, f"{img.name} is loaded (no screen to show it in)")
        return {"FINISHED"}
