//! Colours: a stable palette for parts and a heat ramp for weights.

/// Soft, distinct colours for parts, chosen to read apart under shading and against
/// the dark background; the body (part 0) gets a neutral skin tone.
const PARTS: [[u8; 3]; 12] = [
    [214, 176, 150], // skin
    [96, 150, 210],  // blue
    [232, 200, 90],  // yellow
    [120, 190, 120], // green
    [200, 110, 160], // magenta
    [230, 140, 80],  // orange
    [150, 130, 220], // violet
    [90, 190, 190],  // teal
    [200, 90, 90],   // red
    [170, 170, 170], // grey
    [180, 210, 110], // lime
    [150, 110, 80],  // brown
];

/// The colour of part `i`: stable (the same index always gets the same colour),
/// cycling through twelve colours.
pub fn part_colour(i: usize) -> [u8; 3] {
    PARTS[i % PARTS.len()]
}

/// The weight heat ramp, as in Blender's weight paint: 0 dark blue, then cyan, green,
/// yellow, 1 red. `w` is clamped to `[0, 1]`; NaN maps to 0.
pub fn heat(w: f32) -> [u8; 3] {
    const STOPS: [[f32; 3]; 5] = [
        [20.0, 30.0, 160.0],
        [0.0, 190.0, 230.0],
        [40.0, 210.0, 60.0],
        [250.0, 230.0, 30.0],
        [235.0, 40.0, 30.0],
    ];
    let w = if w.is_nan() { 0.0 } else { w.clamp(0.0, 1.0) };
    let t = w * (STOPS.len() - 1) as f32;
    let i = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - i as f32;
    [0, 1, 2].map(|k| (STOPS[i][k] + (STOPS[i + 1][k] - STOPS[i][k]) * f).round() as u8)
}
