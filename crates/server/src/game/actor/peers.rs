//! What an actor hears from the other instances on the same Postgres database: the log grew
//! (catch up from it: the log is the truth, a notification only a wake-up), this instance now
//! leads the game or no longer does, and who is connected through the others (presence).
//! Nothing here runs on SQLite, where one instance serves every game.

use super::GameActor;
use super::protocol::Published;
use crate::game::error::error_chain;
use crate::game::event::{GameEvent, VersionedEvent};
use crate::game::instance::{PresenceMessage, PresenceReport};
use crate::game::view::Presence;

impl GameActor {
    /// Applies and publishes the events of the log after this actor's version (up to `seq` at
    /// least, when given): in version order, each once, since only events after the version
    /// known are read and applied. Whether the game moved on.
    pub(super) async fn catch_up(&mut self, seq: Option<i64>) -> bool {
        let from = self.game.version;
        if seq.is_some_and(|seq| seq <= from as i64) {
            return false;
        }
        let rows = match self
            .services
            .reader
            .events_since(&self.game.id, from as i64)
            .await
        {
            Ok(rows) if rows.is_empty() => return false,
            Ok(rows) => rows,
            Err(error) => {
                tracing::warn!(game = %self.game.id, error = %error_chain(&error), "could not catch up from the log");
                return false;
            }
        };
        let mut caught_up = Vec::with_capacity(rows.len());
        for row in rows {
            let event = serde_json::from_str::<GameEvent>(&row.body).ok();
            // A join changes the seats, which only the game's row holds: read it all again.
            let Some(event) = event.filter(|e| !matches!(e, GameEvent::Joined { .. })) else {
                self.reload().await;
                return true;
            };
            if self.game.apply(&event, row.at).is_err() {
                self.reload().await;
                return true;
            }
            if let Some(id) = row.move_id {
                self.move_answers.insert(id, row.seq as u64);
            }
            caught_up.push(VersionedEvent {
                version: row.seq as u64,
                at: row.at,
                event,
            });
        }
        self.publish_caught_up(caught_up);
        true
    }

    /// Logs and publishes events written by another instance, already applied to the game.
    pub(super) fn publish_caught_up(&mut self, events: Vec<VersionedEvent>) {
        self.refresh_snapshot();
        for event in events {
            let json = serde_json::to_string(&event).expect("events serialise");
            self.publish(Published::event(&event, json, self.snapshot.clone()));
            self.log.push(event);
        }
        self.schedule_computer();
    }

    /// This instance took the game over (or lost it): its timers start (or stop) here.
    pub(super) fn lead(&mut self, leads: bool) {
        if leads && !self.leads {
            // Taken over from an instance gone: its players are reconnecting, so the flag waits
            // the restart grace, as for a game loaded by the takeover (`Registry::take_over`).
            // A player connected here kept the game loaded, which changes nothing for the other.
            let grace = self.services.config.restart_grace.as_millis() as i64;
            let grace_ends = self.services.clock.now_ms() + grace;
            self.flag_not_before = self.flag_not_before.max(grace_ends);
        }
        self.leads = leads;
        self.schedule_computer();
    }

    /// Who is connected to the game through any instance: this one's presence and the others'.
    pub(super) fn seen(&self) -> Presence {
        let mut seen = self.presence;
        for (_, report) in self.remote_presence.values() {
            for i in 0..2 {
                seen.sockets[i] += report.sockets[i];
                seen.last_request[i] = seen.last_request[i].max(report.last_request[i]);
                seen.left_at[i] = seen.left_at[i].max(report.left_at[i]);
            }
            seen.spectators += report.spectators;
        }
        // A player who left (their last socket closed, on any instance) after their last request
        // is not kept present by it. On one instance this changes nothing: a socket closing
        // forgets the last request there.
        for i in 0..2 {
            seen.last_request[i] = seen.last_request[i].filter(|&at| at >= seen.left_at[i]);
        }
        seen
    }

    /// Tells the other instances who is connected through this one (without waiting for the
    /// database to say it).
    pub(super) fn report_presence(&self) {
        let Some(instance) = &self.services.instance else {
            return;
        };
        let presence = &self.presence;
        instance.say(&PresenceMessage::Report {
            instance: instance.id().to_string(),
            game: self.game.id.clone(),
            stamp: instance.next_stamp(),
            presence: PresenceReport {
                sockets: presence.sockets,
                spectators: presence.spectators,
                last_request: presence.last_request,
                left_at: presence.left_at,
            },
        });
    }

    /// Asks the other instances to report who is connected through them (the actor just started).
    pub(super) fn ask_presence(&self) {
        if let Some(instance) = &self.services.instance {
            instance.say(&PresenceMessage::Ask {
                instance: instance.id().to_string(),
                game: self.game.id.clone(),
            });
        }
    }

    /// Another instance's report (or question) about who is connected.
    pub(super) fn heard_presence(&mut self, message: PresenceMessage) {
        let mine = self.services.instance.as_ref().map(|i| i.id());
        match message {
            PresenceMessage::Ask { instance, .. } if Some(instance.as_str()) != mine => {
                self.report_presence()
            }
            PresenceMessage::Report {
                instance,
                stamp,
                presence,
                ..
            } if Some(instance.as_str()) != mine => {
                let newer = self
                    .remote_presence
                    .get(&instance)
                    .is_none_or(|(seen, _)| *seen < stamp);
                if newer {
                    self.remote_presence.insert(instance, (stamp, presence));
                    self.presence_changed();
                }
            }
            PresenceMessage::Ask { .. } | PresenceMessage::Report { .. } => {}
        }
    }

    /// An instance left: the players connected through it left when it did.
    pub(super) fn instance_gone(&mut self, instance: &str) {
        let Some((_, report)) = self.remote_presence.remove(instance) else {
            return;
        };
        let now = self.services.clock.now_ms();
        for i in 0..2 {
            if report.sockets[i] > 0 {
                self.presence.left_at[i] = self.presence.left_at[i].max(now);
            }
        }
        self.presence_changed();
    }

    /// The views show the presence seen now, and every socket is told.
    pub(super) fn presence_changed(&mut self) {
        self.snapshot = self.snapshot.with_presence(self.seen());
        self.tell_presence();
    }
}
