//! The notices of `GET /api/v1/stream/events`, per account: challenges, their answers, and the
//! start of a game with the receiver's seat token.
//!
//! A seat token exists only in memory until it is delivered (the store keeps its hash), so a
//! `game_start` sent while the player has no stream open waits here, for a while, to be sent when
//! one opens. Pending challenges need no such care: the stream reads them from the store.

use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// How long an undelivered `game_start` waits for a stream (a challenge's own lapse).
pub const UNDELIVERED_FOR_MS: i64 = 10 * 60 * 1000;
/// The most undelivered notices kept for one account.
const MAX_UNDELIVERED: usize = 32;

#[derive(Debug, Default)]
struct Inbox {
    sender: Option<broadcast::Sender<Arc<Value>>>,
    /// `(sent at, notice)`, oldest first.
    undelivered: Vec<(i64, Value)>,
}

#[derive(Debug, Default)]
pub struct Notifier {
    // A std Mutex: each critical section is a map lookup and a send, never an await.
    inboxes: Mutex<HashMap<String, Inbox>>,
}

impl Notifier {
    /// Sends a notice to an account's open streams; a `must_arrive` notice with no stream open
    /// waits for the next one.
    pub fn notify(&self, account_id: &str, notice: Value, must_arrive: bool, now: i64) {
        let mut inboxes = self.inboxes.lock().expect("notifier lock");
        let inbox = inboxes.entry(account_id.to_string()).or_default();
        let delivered = inbox
            .sender
            .as_ref()
            .is_some_and(|s| s.send(Arc::new(notice.clone())).is_ok());
        if !delivered && must_arrive {
            inbox
                .undelivered
                .retain(|(at, _)| now - at < UNDELIVERED_FOR_MS);
            if inbox.undelivered.len() == MAX_UNDELIVERED {
                inbox.undelivered.remove(0);
            }
            inbox.undelivered.push((now, notice));
        }
        if inbox.sender.is_none() && inbox.undelivered.is_empty() {
            inboxes.remove(account_id);
        }
    }

    /// Opens a stream of an account's notices: the ones waiting, then a receiver of new ones.
    pub fn subscribe(
        &self,
        account_id: &str,
        now: i64,
    ) -> (Vec<Value>, broadcast::Receiver<Arc<Value>>) {
        let mut inboxes = self.inboxes.lock().expect("notifier lock");
        let inbox = inboxes.entry(account_id.to_string()).or_default();
        let receiver = match &inbox.sender {
            Some(sender) => sender.subscribe(),
            None => {
                let (sender, receiver) = broadcast::channel(64);
                inbox.sender = Some(sender);
                receiver
            }
        };
        let waiting = std::mem::take(&mut inbox.undelivered)
            .into_iter()
            .filter(|(at, _)| now - at < UNDELIVERED_FOR_MS)
            .map(|(_, notice)| notice)
            .collect();
        (waiting, receiver)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_game_start_without_a_stream_waits_for_the_next_one() {
        let notifier = Notifier::default();
        notifier.notify("ann", json!({"type": "game_start"}), true, 0);
        notifier.notify("ann", json!({"type": "challenge_declined"}), false, 0);
        let (waiting, mut receiver) = notifier.subscribe("ann", 1_000);
        assert_eq!(waiting, vec![json!({"type": "game_start"})]);
        notifier.notify("ann", json!({"type": "challenge"}), false, 2_000);
        assert_eq!(*receiver.try_recv().unwrap(), json!({"type": "challenge"}));
    }

    #[test]
    fn an_undelivered_notice_expires() {
        let notifier = Notifier::default();
        notifier.notify("ann", json!({"type": "game_start"}), true, 0);
        let (waiting, _) = notifier.subscribe("ann", UNDELIVERED_FOR_MS);
        assert!(waiting.is_empty());
    }
}
