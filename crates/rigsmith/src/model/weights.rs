use crate::error::{Error, Result};

/// Sorts one vertex's influences by decreasing weight, ties by bone index (the order
/// [`Weights::sort`] gives every vertex).
pub fn sort_influences(list: &mut [Influence]) {
    list.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.bone.cmp(&b.bone)));
}

/// One bone's share of a vertex.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Influence {
    /// Index of the bone in the character's skeleton.
    pub bone: u32,
    /// Weight, normally in (0, 1].
    pub weight: f32,
}

/// Sparse skin weights of one part: for each vertex a short list of influences,
/// sorted by decreasing weight. Bone indices refer to the character's skeleton.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Weights {
    /// Per-vertex influences (n lists for n vertices).
    pub vertices: Vec<Vec<Influence>>,
}

impl Weights {
    /// `n` vertices with no influences.
    pub fn empty(n: usize) -> Weights {
        Weights {
            vertices: vec![Vec::new(); n],
        }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    /// Whether there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// Every vertex weighted 1.0 to one bone.
    pub fn rigid(n: usize, bone: u32) -> Weights {
        Weights {
            vertices: vec![vec![Influence { bone, weight: 1.0 }]; n],
        }
    }

    /// Adds `w` to bone `bone` on vertex `v` (merging with an existing entry).
    pub fn add(&mut self, v: usize, bone: u32, w: f32) {
        let list = &mut self.vertices[v];
        if let Some(inf) = list.iter_mut().find(|i| i.bone == bone) {
            inf.weight += w;
        } else {
            list.push(Influence { bone, weight: w });
        }
    }

    /// The weight of `bone` on vertex `v` (0 when absent).
    pub fn get(&self, v: usize, bone: u32) -> f32 {
        weight_of(&self.vertices[v], bone)
    }

    /// Sorts each vertex's influences by decreasing weight (ties by bone index), drops
    /// zero and negative weights.
    pub fn sort(&mut self) {
        for list in &mut self.vertices {
            list.retain(|i| i.weight > 0.0);
            sort_influences(list);
        }
    }

    /// Scales each vertex's weights to sum to 1 (vertices with no weight are left empty).
    pub fn normalize(&mut self) {
        for list in &mut self.vertices {
            let s: f32 = list.iter().map(|i| i.weight).sum();
            if s > 0.0 {
                for i in list.iter_mut() {
                    i.weight /= s;
                }
            }
        }
    }

    /// Keeps the `n` largest influences per vertex, then renormalizes.
    pub fn limit(&mut self, n: usize) {
        self.sort();
        for list in &mut self.vertices {
            list.truncate(n);
        }
        self.normalize();
    }

    /// Largest number of influences on any vertex.
    pub fn max_influences(&self) -> usize {
        self.vertices.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// Checks: one list per vertex, bone indices below `bone_count`, finite weights.
    pub fn validate(&self, vertex_count: usize, bone_count: usize, what: &str) -> Result<()> {
        if self.vertices.len() != vertex_count {
            return Err(Error::invalid(
                what,
                format!(
                    "{} weight lists for {vertex_count} vertices",
                    self.vertices.len()
                ),
            ));
        }
        for (v, list) in self.vertices.iter().enumerate() {
            for i in list {
                if i.bone as usize >= bone_count {
                    return Err(Error::invalid(
                        what,
                        format!(
                            "vertex {v} uses bone {} but the skeleton has {bone_count}",
                            i.bone
                        ),
                    ));
                }
                if !i.weight.is_finite() {
                    return Err(Error::invalid(
                        what,
                        format!("vertex {v} has a non-finite weight"),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The weight one vertex's influences `list` give `bone` (0 when absent; repeated
/// entries summed).
pub fn weight_of(list: &[Influence], bone: u32) -> f32 {
    list.iter()
        .filter(|i| i.bone == bone)
        .map(|i| i.weight)
        .sum()
}
