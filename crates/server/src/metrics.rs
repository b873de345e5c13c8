//! Operational metrics in the Prometheus text format: counters and histograms on atomics, so
//! recording never takes a lock on the hot path.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Bucket bounds in seconds, from a fraction of a millisecond to a few seconds.
const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

#[derive(Debug, Default)]
pub struct Histogram {
    counts: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            if seconds <= *bound {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros
            .fetch_add(elapsed.as_micros() as u64, Ordering::Relaxed);
    }

    fn render(&self, name: &str, help: &str, out: &mut String) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            let _ = writeln!(
                out,
                "{name}_bucket{{le=\"{bound}\"}} {}",
                count.load(Ordering::Relaxed)
            );
        }
        let total = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {total}");
        let _ = writeln!(
            out,
            "{name}_sum {}",
            self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6
        );
        let _ = writeln!(out, "{name}_count {total}");
    }
}

#[derive(Debug, Default)]
pub struct Metrics {
    pub sockets: AtomicU64,
    /// Connections closed at once: their address held its cap (`--connections-per-address`).
    pub connections_refused: AtomicU64,
    pub moves_accepted: AtomicU64,
    /// Refused moves by error code.
    moves_refused: Mutex<BTreeMap<&'static str, u64>>,
    pub move_latency: Histogram,
    pub store_latency: Histogram,
}

impl Metrics {
    pub fn refuse(&self, code: &'static str) {
        *self
            .moves_refused
            .lock()
            .expect("metrics lock")
            .entry(code)
            .or_default() += 1;
    }

    pub fn render(&self, live_games: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP ludus_live_games Games with a running actor.\n# TYPE ludus_live_games gauge\nludus_live_games {live_games}"
        );
        let _ = writeln!(
            out,
            "# HELP ludus_sockets Open WebSocket connections.\n# TYPE ludus_sockets gauge\nludus_sockets {}",
            self.sockets.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP ludus_connections_refused_total Connections closed at once because their address held the per-address cap (behind a reverse proxy the server does not trust, every visitor shares the proxy's).\n# TYPE ludus_connections_refused_total counter\nludus_connections_refused_total {}",
            self.connections_refused.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP ludus_moves_accepted_total Moves from clients (HTTP and sockets) accepted; the computer's own are not counted.\n# TYPE ludus_moves_accepted_total counter\nludus_moves_accepted_total {}",
            self.moves_accepted.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP ludus_moves_refused_total Moves refused, by error code.\n# TYPE ludus_moves_refused_total counter"
        );
        for (code, count) in self.moves_refused.lock().expect("metrics lock").iter() {
            let _ = writeln!(out, "ludus_moves_refused_total{{code=\"{code}\"}} {count}");
        }
        self.move_latency.render(
            "ludus_move_seconds",
            "Time from a move's arrival to its acknowledgement.",
            &mut out,
        );
        self.store_latency.render(
            "ludus_store_seconds",
            "Time to commit a batch of events.",
            &mut out,
        );
        out
    }
}
