//! The `duel step` text format: one case a line (`STATE | ACTIONS1 |
//! ACTIONS2`), read strictly with line numbers, and the answer lines.

use super::*;

pub(super) fn write_player(out: &mut String, p: &Player) {
    push_number(out, p.pos.0.into());
    for v in [p.pos.1, p.hp] {
        out.push(' ');
        push_number(out, v.into());
    }
    for v in std::iter::once(p.blessing).chain(p.waits) {
        out.push(' ');
        push_number(out, v.into());
    }
}

/// `value` in decimal. Every number of a state is small (a turn up to 61,
/// hp as low as damage takes it), and most are one digit: written by hand,
/// a digit a push, since the formatting machinery costs more than the
/// rest of a line (`lockstep verify` writes a sample of its answers as
/// text).
#[inline]
fn push_number(out: &mut String, value: i32) {
    match u8::try_from(value) {
        Ok(digit @ 0..=9) => out.push(char::from(b'0' + digit)),
        Ok(two @ 10..=99) => {
            out.push(char::from(b'0' + two / 10));
            out.push(char::from(b'0' + two % 10));
        }
        _ => push_long_number(out, value),
    }
}

/// [`push_number`] past two digits or below zero.
fn push_long_number(out: &mut String, value: i32) {
    if value < 0 {
        out.push('-');
    }
    let magnitude = value.unsigned_abs();
    if magnitude >= 10 {
        push_long_number(out, (magnitude / 10) as i32);
    }
    out.push(char::from(b'0' + (magnitude % 10) as u8));
}

/// `T OR OC R1 C1 H1 B1 W*6 R2 C2 H2 B2 W*6`. `turn` is printed as given, so the
/// answer's T+1 may be 61.
pub fn write_state(state: &State) -> String {
    let mut out = String::with_capacity(64);
    push_state(&mut out, state);
    out
}

fn push_state(out: &mut String, state: &State) {
    for v in [
        state.turn.into(),
        state.spring.0.into(),
        state.spring.1.into(),
    ] {
        push_number(out, v);
        out.push(' ');
    }
    write_player(out, &state.players[0]);
    out.push(' ');
    write_player(out, &state.players[1]);
}

pub fn write_turn(turn: &Turn) -> String {
    let mut out = String::with_capacity(80);
    push_turn(&mut out, turn);
    out
}

fn push_turn(out: &mut String, turn: &Turn) {
    push_state(out, &turn.state);
    for [first, second] in turn.actions {
        out.push_str(" | ");
        // Writing into a `String` cannot fail.
        let _ = first.write_to(out);
        out.push(' ');
        let _ = second.write_to(out);
    }
}

pub fn write_result(result: &TurnResult) -> String {
    let mut out = String::with_capacity(80);
    push_result(&mut out, result);
    out
}

fn push_result(out: &mut String, result: &TurnResult) {
    push_state(out, &result.next);
    out.push_str(" | ");
    let _ = result.outcome.write_to(out);
}

/// Parses one `duel step` line (numbered `number` in errors).
///
/// Nothing is allocated unless the line is refused: verify reads back
/// thousands of its cases' inputs, and a name formatted for each field
/// cost more than resolving the line.
pub fn parse_turn(text: &str, number: usize) -> Result<Turn, InputError> {
    let err = |m: String| InputError::new(number, m);
    // Bounded splits: a line of megabytes costs no more than its text.
    let (parts, found) = crate::input::first_few::<3>(text.splitn(4, '|'));
    if found != 3 {
        return Err(err(format!(
            "expected STATE | ACTIONS1 | ACTIONS2, found {} separated by |",
            match found {
                1 => "1 part".to_string(),
                n if n > 3 => "more than 3 parts".to_string(),
                n => format!("{n} parts"),
            }
        )));
    }
    let (tokens, found) = crate::input::first_few::<23>(crate::input::words(parts[0]).take(24));
    if found != 23 {
        return Err(err(format!(
            "expected 23 numbers in the state (T OR OC, then R C H B and six waits per player), found {}",
            if found > 23 { "more".to_string() } else { found.to_string() }
        )));
    }
    // The field's name is written only for an error.
    let int = |i: usize, what: &dyn Fn() -> String, lo: i64, hi: i64| -> Result<i64, InputError> {
        match tokens[i].parse::<i64>() {
            Ok(value) if (lo..=hi).contains(&value) => Ok(value),
            _ => parse_int(tokens[i], number, &what(), lo..=hi),
        }
    };
    let turn = int(0, &|| "T".into(), 1, i64::from(LAST_TURN))? as u8;
    let spring = (
        int(1, &|| "OR".into(), 1, 7)? as i8,
        int(2, &|| "OC".into(), 1, 7)? as i8,
    );
    let mut players = [Player::fresh((1, 1)); 2];
    for (p, player) in players.iter_mut().enumerate() {
        let base = 3 + 10 * p;
        let n = p + 1;
        player.pos = (
            int(base, &|| format!("R{n}"), 1, 7)? as i8,
            int(base + 1, &|| format!("C{n}"), 1, 7)? as i8,
        );
        player.hp = int(base + 2, &|| format!("H{n}"), 1, i64::from(START_HP))? as i8;
        player.blessing = int(
            base + 3,
            &|| format!("B{n}"),
            0,
            i64::from(WINNING_BLESSING) - 1,
        )? as u8;
        for s in 0..6 {
            let what = || format!("player {n}'s wait for {}", action_name(s as u8 + 2));
            player.waits[s] = int(base + 4 + s, &what, 0, i64::from(COOLDOWN[s + 2]))? as u8;
        }
    }
    if players[0].pos == players[1].pos {
        return Err(err("both players stand on one cell".to_string()));
    }
    let mut actions = [[Action::WAIT; 2]; 2];
    for p in 0..2 {
        actions[p] =
            parse_actions(parts[1 + p]).map_err(|m| err(format!("ACTIONS{}: {m}", p + 1)))?;
    }
    Ok(Turn {
        state: State {
            turn,
            spring,
            players,
        },
        actions,
    })
}

/// The judge's view of the duel: a case is `duel step` lines, each resolved
/// on its own, answered one line each; the fast solver is the bitmask
/// resolver (`duel/fast/`).
impl crate::Model for Case {
    type Answer = Answer;

    /// Parses `duel step` text: one case per line; blank lines are skipped.
    fn parse(text: &str) -> Result<Case, InputError> {
        crate::input::check_line_ends(text)?;
        let mut case = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            if !raw.trim().is_empty() {
                case.push(parse_turn(raw, index + 1)?);
            }
        }
        if case.is_empty() {
            return Err(InputError::new(
                1,
                "expected a duel step line, found end of input",
            ));
        }
        Ok(case)
    }

    fn write_input(&self) -> String {
        let mut out = String::with_capacity(100 * self.len());
        for turn in self {
            push_turn(&mut out, turn);
            out.push('\n');
        }
        out
    }

    fn write_answer(answer: &Answer) -> String {
        let mut out = String::with_capacity(80 * answer.len());
        for result in answer {
            push_result(&mut out, result);
            out.push('\n');
        }
        out
    }

    fn solve(&self) -> crate::Run<Answer> {
        super::fast::solve(self)
    }
}
