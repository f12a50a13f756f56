//! `lockstep languages`: the table of languages in force (the defaults and
//! the user's overrides), printed in the overrides file's own format.

use super::Exit;
use anyhow::Result;
use std::io::Write;

#[derive(clap::Args, Debug)]
pub(super) struct LanguagesArgs {}

pub(super) fn languages(_: LanguagesArgs) -> Result<Exit> {
    let languages = lockstep_judge::lang::Languages::load().map_err(anyhow::Error::msg)?;
    out!("{languages}");
    Ok(Exit::Clean)
}
