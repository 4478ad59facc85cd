//! CPU software rasterizer and review sheets for rigsmith characters (no GPU needed).
