//! Every corpus row as a test of its own, `<module>/<row>` (see
//! `lockstep_harness::row_tests` for why this target has a harness of its own).

use lockstep_harness::row_tests::{run_row_tests, RowTestArgs};
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = RowTestArgs::parse(std::env::args().skip(1));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    match run_row_tests(&args, &dir, &mut std::io::stdout().lock()) {
        Ok(true) => ExitCode::SUCCESS,
        // libtest's code for failed tests.
        Ok(false) | Err(_) => ExitCode::from(101),
    }
}
