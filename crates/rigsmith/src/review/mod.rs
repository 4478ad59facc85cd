//! Review: the pose library, deformation numbers, rubric checks and reports.
