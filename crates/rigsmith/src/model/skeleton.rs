use std::collections::HashMap;

use glam::{Mat3, Mat4, Quat, Vec3};

use super::naming::{side_of, Side};
use crate::error::{Error, Result};

/// One bone of a skeleton, in glTF space at rest.
///
/// The bone's local frame: Y runs from `head` to `tail`; X is `x_axis` (the hinge axis
/// for elbows, knees and fingers, as Blender/Rigify use it), made orthogonal to Y;
/// Z = X x Y.
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    /// Unique name.
    pub name: String,
    /// Index of the parent bone in [`Skeleton::bones`], `None` for a root.
    pub parent: Option<usize>,
    /// Where the bone starts (the joint it rotates about), metres.
    pub head: Vec3,
    /// Where the bone ends, metres.
    pub tail: Vec3,
    /// The bone's local X axis (hinge axis), unit length, orthogonal to `tail - head`.
    pub x_axis: Vec3,
    /// Whether the bone deforms the mesh.
    pub deform: bool,
    /// Which side it is on.
    pub side: Side,
}

impl Bone {
    /// A deform bone with a default x_axis and the side read from its name.
    pub fn new(name: impl Into<String>, parent: Option<usize>, head: Vec3, tail: Vec3) -> Bone {
        let name = name.into();
        let side = side_of(&name);
        Bone {
            x_axis: default_x_axis(tail - head),
            name,
            parent,
            head,
            tail,
            deform: true,
            side,
        }
    }

    /// Length of the bone, metres.
    pub fn length(&self) -> f32 {
        (self.tail - self.head).length()
    }

    /// Unit vector head -> tail (Y of the bone's frame); +Y for a zero-length bone.
    pub fn y_axis(&self) -> Vec3 {
        (self.tail - self.head).try_normalize().unwrap_or(Vec3::Y)
    }

    /// The bone's rest orientation as a rotation matrix whose columns are X, Y, Z.
    pub fn frame(&self) -> Mat3 {
        let y = self.y_axis();
        let mut x = self.x_axis - y * self.x_axis.dot(y);
        if x.length_squared() < 1e-10 {
            x = default_x_axis(y);
        }
        let x = x.normalize();
        let z = x.cross(y).normalize();
        Mat3::from_cols(x, y, z)
    }

    /// The bone's rest transform in world space (rotation = [`Bone::frame`], translation = head).
    pub fn rest_matrix(&self) -> Mat4 {
        Mat4::from_rotation_translation(Quat::from_mat3(&self.frame()).normalize(), self.head)
    }

    /// The bone's middle point.
    pub fn middle(&self) -> Vec3 {
        0.5 * (self.head + self.tail)
    }
}

/// A sensible x_axis for a bone pointing along `dir`: world X made orthogonal to the
/// bone, or world Z/−Y when the bone runs along X.
pub(crate) fn default_x_axis(dir: Vec3) -> Vec3 {
    let y = dir.try_normalize().unwrap_or(Vec3::Y);
    for cand in [Vec3::X, Vec3::Z, Vec3::NEG_Y] {
        let x = cand - y * cand.dot(y);
        if x.length_squared() > 0.25 {
            return x.normalize();
        }
    }
    Vec3::X
}

/// A skeleton: bones with parents listed before their children (see [`Skeleton::validate`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Skeleton {
    /// The bones, parents first.
    pub bones: Vec<Bone>,
}

impl Skeleton {
    /// Builds a skeleton from bones in any order, reordering them parents-first.
    /// Returns the skeleton and, for each input index, its new index.
    pub fn from_unordered(bones: Vec<Bone>) -> Result<(Skeleton, Vec<usize>)> {
        let n = bones.len();
        for (i, b) in bones.iter().enumerate() {
            if let Some(p) = b.parent {
                if p >= n {
                    return Err(Error::invalid(
                        "skeleton",
                        format!(
                            "bone {:?} has parent index {p} but there are {n} bones",
                            b.name
                        ),
                    ));
                }
                if p == i {
                    return Err(Error::invalid(
                        "skeleton",
                        format!("bone {:?} is its own parent", b.name),
                    ));
                }
            }
        }
        let mut order = Vec::with_capacity(n);
        let mut state = vec![0u8; n]; // 0 new, 1 visiting, 2 done
        for start in 0..n {
            let mut chain = Vec::new();
            let mut cur = Some(start);
            while let Some(c) = cur {
                match state[c] {
                    2 => break,
                    1 => {
                        let names: Vec<&str> = chain
                            .iter()
                            .map(|&i: &usize| bones[i].name.as_str())
                            .collect();
                        return Err(Error::invalid(
                            "skeleton",
                            format!("parent cycle through {}", names.join(" -> ")),
                        ));
                    }
                    _ => {
                        state[c] = 1;
                        chain.push(c);
                        cur = bones[c].parent;
                    }
                }
            }
            for &c in chain.iter().rev() {
                state[c] = 2;
                order.push(c);
            }
        }
        let mut new_index = vec![0usize; n];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let mut out: Vec<Bone> = order.iter().map(|&o| bones[o].clone()).collect();
        for b in &mut out {
            b.parent = b.parent.map(|p| new_index[p]);
        }
        let s = Skeleton { bones: out };
        s.validate()?;
        Ok((s, new_index))
    }

    /// Number of bones.
    pub fn len(&self) -> usize {
        self.bones.len()
    }

    /// Whether there are no bones.
    pub fn is_empty(&self) -> bool {
        self.bones.is_empty()
    }

    /// Index of the bone with this exact name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }

    /// A name -> index map.
    pub fn index_map(&self) -> HashMap<&str, usize> {
        self.bones
            .iter()
            .enumerate()
            .map(|(i, b)| (b.name.as_str(), i))
            .collect()
    }

    /// Children of each bone.
    pub fn children(&self) -> Vec<Vec<usize>> {
        let mut c = vec![Vec::new(); self.bones.len()];
        for (i, b) in self.bones.iter().enumerate() {
            if let Some(p) = b.parent {
                c[p].push(i);
            }
        }
        c
    }

    /// Indices of root bones.
    pub fn roots(&self) -> Vec<usize> {
        (0..self.bones.len())
            .filter(|&i| self.bones[i].parent.is_none())
            .collect()
    }

    /// Depth of each bone (roots are 0).
    pub fn depths(&self) -> Vec<usize> {
        let mut d = vec![0usize; self.bones.len()];
        for i in 0..self.bones.len() {
            if let Some(p) = self.bones[i].parent {
                d[i] = d[p] + 1;
            }
        }
        d
    }

    /// Whether `a` is `b` or one of `b`'s ancestors.
    pub fn is_ancestor(&self, a: usize, b: usize) -> bool {
        let mut cur = Some(b);
        while let Some(c) = cur {
            if c == a {
                return true;
            }
            cur = self.bones[c].parent;
        }
        false
    }

    /// Checks the invariants: unique non-empty names, parents exist and come first (so
    /// there are no cycles), finite head/tail/x_axis.
    pub fn validate(&self) -> Result<()> {
        let mut seen = HashMap::new();
        for (i, b) in self.bones.iter().enumerate() {
            if b.name.is_empty() {
                return Err(Error::invalid(
                    "skeleton",
                    format!("bone {i} has an empty name"),
                ));
            }
            if let Some(j) = seen.insert(b.name.as_str(), i) {
                return Err(Error::invalid(
                    "skeleton",
                    format!("bone name {:?} is used by bones {j} and {i}", b.name),
                ));
            }
            if let Some(p) = b.parent {
                if p >= i {
                    return Err(Error::invalid(
                        "skeleton",
                        format!(
                            "bone {:?} (index {i}) has parent index {p}: parents must come first",
                            b.name
                        ),
                    ));
                }
            }
            if !(b.head.is_finite() && b.tail.is_finite() && b.x_axis.is_finite()) {
                return Err(Error::invalid(
                    "skeleton",
                    format!("bone {:?} has a non-finite head, tail or x_axis", b.name),
                ));
            }
        }
        Ok(())
    }

    /// Indices of deform bones.
    pub fn deform_bones(&self) -> Vec<usize> {
        (0..self.bones.len())
            .filter(|&i| self.bones[i].deform)
            .collect()
    }

    /// Rest transforms of all bones in world space.
    pub fn rest_matrices(&self) -> Vec<Mat4> {
        self.bones.iter().map(Bone::rest_matrix).collect()
    }

    /// Applies an affine map `p -> p * scale + offset` to every bone (for model fixes).
    pub fn transform(&mut self, m: Mat4) {
        let r = Mat3::from_mat4(m);
        for b in &mut self.bones {
            b.head = m.transform_point3(b.head);
            b.tail = m.transform_point3(b.tail);
            b.x_axis = (r * b.x_axis).normalize_or_zero();
        }
    }

    /// Body height proxy from the skeleton alone: vertical extent of heads and tails.
    pub fn height(&self) -> f32 {
        let ys = self.bones.iter().flat_map(|b| [b.head.y, b.tail.y]);
        let (lo, hi) = ys.fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), y| {
            (l.min(y), h.max(y))
        });
        if lo.is_finite() {
            hi - lo
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reorder_and_cycle() {
        let b = |n: &str, p: Option<usize>| Bone::new(n, p, Vec3::ZERO, Vec3::Y);
        let (s, idx) =
            Skeleton::from_unordered(vec![b("c", Some(1)), b("b", Some(2)), b("a", None)]).unwrap();
        assert_eq!(s.bones[0].name, "a");
        assert_eq!(idx, vec![2, 1, 0]);
        let err = Skeleton::from_unordered(vec![b("x", Some(1)), b("y", Some(0))]).unwrap_err();
        assert!(err.to_string().contains("cycle"), "{err}");
    }

    #[test]
    fn frame_is_orthonormal() {
        let mut bone = Bone::new("a", None, Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0));
        bone.x_axis = Vec3::new(0.3, 0.1, 0.9);
        let f = bone.frame();
        assert!((f.determinant() - 1.0).abs() < 1e-5);
        assert!((f.y_axis - bone.y_axis()).length() < 1e-6);
    }
}
