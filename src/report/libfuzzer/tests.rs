use super::*;

#[test]
fn both_shapes_of_status_line_are_read_and_others_skipped() {
    let log = "INFO: Seed: 123\n\
        #1048576: cov: 1133 ft: 3810 corp: 321 exec/s: 52428 oom/timeout/crash: 0/0/3 time: 20s job: 12 dft_time: 0\n\
        #65536\tpulse  cov: 900 ft: 2000 corp: 120/12Kb lim: 100 exec/s: 21845 rss: 60Mb\n\
        #12\tINITED cov: 5 ft: 6 corp: 1/1b exec/s: 0 rss: 30Mb\n\
        ==1== ERROR: libFuzzer: deadly signal\n";
    assert_eq!(
        libfuzzer_series(log),
        [
            FuzzerSample {
                seconds: 20.0,
                execs: 1_048_576,
                cov: 1133,
                ft: 3810,
                crashes: 3
            },
            FuzzerSample {
                seconds: 65536.0 / 21845.0,
                execs: 65536,
                cov: 900,
                ft: 2000,
                crashes: 0
            },
            FuzzerSample {
                seconds: 0.0,
                execs: 12,
                cov: 5,
                ft: 6,
                crashes: 0
            },
        ]
    );
}
