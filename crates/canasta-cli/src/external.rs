//! Seats played by other programs through the bot protocol, and the bots
//! a seat name stands for (`random`, `heuristic`, ..., or `cmd:PROGRAM ARGS`).

use crate::text::{excerpt, shorten_quoted};
use canasta_ai::protocol::{decision_line, game_line, read_reply};
use canasta_ai::{BOT_NAMES, Bot, BotError, Decision, bot_by_name};
use canasta_core::{Action, Rules};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The prefix of a seat name that runs a program.
pub const COMMAND_PREFIX: &str = "cmd:";

/// Whether a seat name is known: a built-in bot or a command.
pub fn check_seat_name(name: &str) -> Result<(), String> {
    match name.strip_prefix(COMMAND_PREFIX) {
        Some(cmd) if cmd.trim().is_empty() => Err(format!("`{}` names no program", excerpt(name))),
        Some(_) => Ok(()),
        None if bot_by_name(name, 0).is_some() => Ok(()),
        None => Err(format!(
            "unknown bot `{}` (known: {}, a search bot with a budget such as ismcts@250ms or ismcts-hard@5000, on threads such as ismcts-hard@250ms/2, or {COMMAND_PREFIX}PROGRAM)",
            excerpt(name),
            BOT_NAMES.join(", ")
        )),
    }
}

/// The bot for a seat of a game under `rules`.
///
/// # Errors
/// An unknown name, or a program that cannot be started.
pub fn seat_bot(name: &str, rules: &Rules, seat: usize, seed: u64) -> Result<Box<dyn Bot>, String> {
    check_seat_name(name)?;
    match name.strip_prefix(COMMAND_PREFIX) {
        Some(cmd) => Ok(Box::new(ExternalBot::start(cmd.trim(), rules, seat, seed)?)),
        None => Ok(bot_by_name(name, seed).expect("the name is checked")),
    }
}

/// A program that plays a seat, one JSON line per decision.
pub struct ExternalBot {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl ExternalBot {
    /// Starts `command` (through `sh -c`) and tells it the game.
    ///
    /// # Errors
    /// The program cannot be started or does not read its input.
    pub fn start(
        command: &str,
        rules: &Rules,
        seat: usize,
        seed: u64,
    ) -> Result<ExternalBot, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", excerpt(command)))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut bot = ExternalBot {
            name: excerpt(&format!("{COMMAND_PREFIX}{command}")),
            child,
            stdin: Some(stdin),
            stdout,
        };
        bot.send(&game_line(rules, canasta_core::Seat::new(seat), seed))
            .map_err(|e| e.0)?;
        Ok(bot)
    }

    fn send(&mut self, line: &str) -> Result<(), BotError> {
        let stdin = self.stdin.as_mut().expect("open until dropped");
        let sent = writeln!(stdin, "{line}").and_then(|()| stdin.flush());
        sent.map_err(|e| match self.exit_text() {
            Some(exit) => BotError(format!("`{}` {exit}", self.name)),
            None => BotError(format!("`{}` does not read its input: {e}", self.name)),
        })
    }

    /// How the program ended, if it has: `has exited (exit status 127: the
    /// shell found no such program)`.
    fn exit_text(&mut self) -> Option<String> {
        // The pipe may close a moment before the exit is seen.
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                let how = match status.code() {
                    Some(127) => "exit status 127: the shell found no such program".to_string(),
                    Some(126) => "exit status 126: the shell cannot run it".to_string(),
                    Some(code) => format!("exit status {code}"),
                    None => status.to_string(),
                };
                return Some(format!("has exited ({how})"));
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        None
    }
}

impl Bot for ExternalBot {
    fn name(&self) -> &str {
        &self.name
    }

    /// Panics where [`Bot::try_choose`] fails; hosts call that instead.
    fn choose(&mut self, decision: &Decision<'_>) -> Action {
        self.try_choose(decision).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_choose(&mut self, decision: &Decision<'_>) -> Result<Action, BotError> {
        self.send(&decision_line(&decision.observation(), decision.legal()))?;
        let mut line = String::new();
        let read = self
            .stdout
            .read_line(&mut line)
            .map_err(|e| BotError(format!("`{}`: {e}", self.name)))?;
        if read == 0 {
            return Err(BotError(match self.exit_text() {
                Some(exit) => format!("`{}` {exit} without answering", self.name),
                None => format!("`{}` closed its output", self.name),
            }));
        }
        // The reply is the program's text: a long one is shortened.
        read_reply(&line, decision.legal()).map_err(|e| {
            let mut reason = shorten_quoted(&e.to_string());
            if reason.chars().count() > 300 {
                // An unquoted echo (`the bot answered with an error: ...`).
                reason = excerpt(&reason);
            }
            BotError(format!("`{}`: {reason}", self.name))
        })
    }
}

/// Closing the program's input tells it the games are over; one that has
/// not exited two seconds later is killed.
impl Drop for ExternalBot {
    fn drop(&mut self) {
        drop(self.stdin.take());
        for _ in 0..200 {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
