//! The real server in a process of its own, for tests that must kill it (SIGKILL) and start it
//! again: `ludus-test-server <database-url>` listens on an ephemeral loopback port and prints
//! `listening on <base>` once it accepts connections. SIGINT or SIGTERM shut it down gracefully.

use std::io::Write;

#[tokio::main]
async fn main() {
    let database_url = std::env::args()
        .nth(1)
        .expect("usage: ludus-test-server <database-url>");
    let mut config = ludus_tests::test_config(database_url);
    // Several of these share one Postgres (three per cluster test, beside the other tests): a
    // small pool each keeps them all within its `max_connections` (100 by default).
    config.database_connections = 10;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .expect("a free port");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    let server = tokio::spawn(ludus_server::run(listener, config, async {
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                .expect("a SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
        }
    }));
    ludus_tests::Api::new(&base).wait_until_ready().await;
    println!("listening on {base}");
    std::io::stdout().flush().expect("stdout");
    let _ = server.await;
}
