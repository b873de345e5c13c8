//! Rate limits: a token bucket per key — a client address (creating and joining games, hints),
//! a seat (hints) — and per connection (WebSocket messages). Refusals say when to try again.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;

/// A token bucket: `burst` tokens, refilled at `per_second`.
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    tokens: f64,
    updated_ms: i64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub per_second: f64,
    pub burst: f64,
}

impl Rate {
    pub fn per_minute(count: u32) -> Rate {
        Rate {
            per_second: f64::from(count) / 60.0,
            burst: f64::from(count.max(1)),
        }
    }
}

impl Bucket {
    pub fn full(rate: Rate, now_ms: i64) -> Bucket {
        Bucket {
            tokens: rate.burst,
            updated_ms: now_ms,
        }
    }

    /// Takes one token, or says in how many milliseconds one will be there.
    pub fn take(&mut self, rate: Rate, now_ms: i64) -> Result<(), u64> {
        let elapsed = (now_ms - self.updated_ms).max(0) as f64 / 1000.0;
        self.tokens = (self.tokens + elapsed * rate.per_second).min(rate.burst);
        self.updated_ms = now_ms;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else if rate.per_second <= 0.0 {
            Err(60_000)
        } else {
            Err((((1.0 - self.tokens) / rate.per_second) * 1000.0).ceil() as u64)
        }
    }
}

/// One bucket per key (a client address, a seat).
#[derive(Debug)]
pub struct Limiter<K> {
    rate: Rate,
    buckets: Mutex<HashMap<K, Bucket>>,
}

/// One bucket per client address.
pub type AddressLimiter = Limiter<IpAddr>;

/// Beyond this many tracked addresses, the ones whose buckets have refilled are forgotten.
const MAX_TRACKED: usize = 10_000;

impl<K: Hash + Eq> Limiter<K> {
    pub fn new(rate: Rate) -> Limiter<K> {
        Limiter {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    pub fn check(&self, key: K, now_ms: i64) -> Result<(), u64> {
        let mut buckets = self.buckets.lock().expect("limiter lock");
        if buckets.len() > MAX_TRACKED {
            let rate = self.rate;
            buckets.retain(|_, b| {
                let mut probe = *b;
                probe.take(rate, now_ms).is_err() || probe.tokens + 1.0 < rate.burst
            });
        }
        buckets
            .entry(key)
            .or_insert_with(|| Bucket::full(self.rate, now_ms))
            .take(self.rate, now_ms)
    }

    /// `check`, answered in the API's terms: 429 `rate_limited`, with when to try again.
    pub fn admit(&self, key: K, now_ms: i64) -> Result<(), crate::error::ApiError> {
        self.check(key, now_ms)
            .map_err(|retry_after_ms| crate::error::ApiError::RateLimited { retry_after_ms })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_says_when_to_retry() {
        let rate = Rate::per_minute(2);
        let limiter = AddressLimiter::new(rate);
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(limiter.check(ip, 0).is_ok());
        assert!(limiter.check(ip, 0).is_ok());
        assert_eq!(limiter.check(ip, 0), Err(30_000));
        assert!(limiter.check(ip, 30_000).is_ok());
        assert!(
            limiter.check("10.0.0.1".parse().unwrap(), 0).is_ok(),
            "each address has its own bucket"
        );
    }
}
