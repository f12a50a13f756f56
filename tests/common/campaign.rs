//! Campaign options for the tests of every package that run a campaign in
//! process: one file, included by each test binary's support module.

/// A quiet campaign on two jobs that stops after `max_cases` (the time limit is
/// only a safety net): the options the broken-core campaign tests share,
/// and the report test's.
pub fn campaign_options(seed: u64, max_cases: u64) -> lockstep_harness::campaign::CampaignOptions {
    lockstep_harness::campaign::CampaignOptions {
        plan: lockstep_search::Plan::cases(
            seed,
            max_cases,
            2,
            lockstep_harness::shrink::DIFFERENTIAL_BUDGET,
        ),
        stats: false,
        limits: lockstep_harness::puzzle::CaseLimits::Wide,
    }
}
