//! 2D cut-out rigs: bones, slots, skins, attachments, their checks, paint order, the
//! scene builder and Spine interop.
