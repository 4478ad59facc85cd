//! One module per subcommand.

pub mod mannequin;
