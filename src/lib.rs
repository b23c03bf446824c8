//! warsim: plays millions of headless games of War-family card games and reports exact,
//! reproducible statistics. The binary is a thin shell over `app::main`.

pub mod app;
pub mod cards;
pub mod cli;
pub mod decide;
pub mod error;
pub mod fuzzing;
pub mod games;
pub mod io;
pub mod outdir;
pub mod pile;
pub mod plan;
pub mod provenance;
pub mod record;
pub mod report;
pub mod scenario;
pub mod seed;
pub mod settings;
pub mod sim;
pub mod stats;
pub mod suggest;
pub mod tournament;
pub mod untrusted;
