//! Every corpus row as a test of its own, `<module>/<row>` (see
//! `lockstep_harness::row_tests` for why this target's harness is
//! libtest-mimic).

use libtest_mimic::{Arguments, Trial};
use lockstep_harness::row_tests::row_tests;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let trials = row_tests(&dir, args.filter.as_deref())
        .into_iter()
        .map(|test| Trial::test(test.name, move || (test.check)().map_err(Into::into)))
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}
