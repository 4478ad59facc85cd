//! Bones' pivots against the skeleton art: a bone's `pivot` must name a circle in the
//! SVG's `skeleton` group.
//!
//! A cut-out character is drawn in one master SVG whose `skeleton` group marks each
//! joint with a circle (`<circle id="neck" cx=".." cy=".." r=".."/>`); a bone names
//! its joint's circle in `pivot`. The group is the `<g>` whose `id` is `skeleton`
//! (or, as Inkscape writes a layer, whose `inkscape:label` is); a circle counts at any
//! depth inside it and is named by its `id`. A circle of that name elsewhere in the
//! file does not count: it is not a joint marker.
//!
//! ```
//! use rigsmith_2d::pivot::skeleton_pivots;
//! let svg = r#"<svg xmlns="http://www.w3.org/2000/svg"><g id="skeleton">
//!   <circle id="neck" cx="512" cy="380" r="6"/></g></svg>"#;
//! assert_eq!(skeleton_pivots(svg).unwrap().into_iter().collect::<Vec<_>>(), ["neck"]);
//! ```

use std::collections::BTreeSet;
use std::path::Path;

use crate::error::RigError;
use crate::model::RigDocument;

/// The name of the group that holds the joint circles.
pub const SKELETON_GROUP: &str = "skeleton";

const INKSCAPE_NS: &str = "http://www.inkscape.org/namespaces/inkscape";

fn is_skeleton_group(n: &roxmltree::Node) -> bool {
    n.is_element()
        && n.tag_name().name() == "g"
        && (n.attribute("id") == Some(SKELETON_GROUP)
            || n.attribute((INKSCAPE_NS, "label")) == Some(SKELETON_GROUP))
}

/// The names (`id`s) of the circles inside the SVG's skeleton group(s). `Err` says
/// why there are none to match: the text is not XML, or it has no skeleton group.
pub fn skeleton_pivots(svg: &str) -> Result<BTreeSet<String>, String> {
    let xml = roxmltree::Document::parse(svg).map_err(|e| format!("not valid SVG: {e}"))?;
    let groups: Vec<_> = xml.descendants().filter(is_skeleton_group).collect();
    if groups.is_empty() {
        return Err(format!(
            "has no `{SKELETON_GROUP}` group (a <g id=\"{SKELETON_GROUP}\"> holding one circle per joint)"
        ));
    }
    Ok(groups
        .iter()
        .flat_map(|g| g.descendants())
        .filter(|n| n.is_element() && n.tag_name().name() == "circle")
        .filter_map(|n| n.attribute("id").map(str::to_string))
        .collect())
}

/// What is wrong with the bones' pivots against the skeleton SVG `svg` (named `file`
/// in the messages): one sentence per bone whose pivot is not a circle of the skeleton
/// group, or one for the whole file when it has no such group and some bone names a
/// pivot. Nothing when no bone names a pivot.
pub fn pivot_problems(doc: &RigDocument, svg: &str, file: &str) -> Vec<String> {
    let named: Vec<_> = doc
        .bones
        .iter()
        .filter_map(|b| b.pivot.as_deref().map(|p| (b.name.as_str(), p)))
        .collect();
    if named.is_empty() {
        return Vec::new();
    }
    let circles = match skeleton_pivots(svg) {
        Ok(c) => c,
        Err(why) => {
            let bones: Vec<String> = named.iter().map(|(b, _)| format!("'{b}'")).collect();
            return vec![format!(
                "{file} {why}, so the pivots of bone(s) {} match nothing",
                bones.join(", ")
            )];
        }
    };
    let known = if circles.is_empty() {
        "it has none".to_string()
    } else {
        format!(
            "its circles: {}",
            circles.iter().cloned().collect::<Vec<_>>().join(", ")
        )
    };
    named
        .into_iter()
        .filter(|(_, p)| !circles.contains(*p))
        .map(|(b, p)| {
            format!(
                "bone '{b}' names pivot '{p}', which is no circle in the `{SKELETON_GROUP}` group of {file} ({known})"
            )
        })
        .collect()
}

/// Reads the skeleton SVG at `path` and refuses the rig when a bone's pivot matches
/// no circle of its skeleton group ([`RigError::Pivot`], naming the file and the
/// bones).
pub fn validate_pivots(doc: &RigDocument, path: &Path) -> Result<(), RigError> {
    let problems = read_pivot_problems(doc, path)?;
    if problems.is_empty() {
        Ok(())
    } else {
        Err(RigError::Pivot {
            file: path.display().to_string(),
            msg: problems.join("; "),
        })
    }
}

/// [`pivot_problems`] against the file at `path` (an unreadable file is an error).
pub fn read_pivot_problems(doc: &RigDocument, path: &Path) -> Result<Vec<String>, RigError> {
    let bytes = std::fs::read(path).map_err(|e| RigError::io(path, e))?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(pivot_problems(doc, &text, &path.display().to_string()))
}
