//! Who the client is, for the per-address limits. Behind a reverse proxy every connection comes
//! from the proxy, so the client's address is read from the forwarding header the proxy writes —
//! but only when the connection comes from a proxy the deployment trusts: anyone else could write
//! those headers to pass for someone else. Only that one header is read: a proxy passes the other
//! on as the client sent it, so trusting both would let a client name its own address.

use axum::http::HeaderMap;
use ipnet::IpNet;
use std::net::IpAddr;

/// The header a deployment's proxies write the client's address in (`--forwarded-header`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ForwardingHeader {
    /// `X-Forwarded-For` (nginx, Caddy, Traefik, HAProxy and most others).
    #[default]
    XForwardedFor,
    /// `Forwarded` (RFC 7239).
    Forwarded,
}

/// The client's address: the connection's own, or, when that is a trusted proxy, the last
/// address in the forwarding chain (of `header`) that is not a trusted proxy (each proxy appends
/// the address it received the request from, so the entries before an untrusted one could be
/// forged). An IPv4 address written as IPv6 (`::ffff:a.b.c.d`, as a dual-stack listener sees an
/// IPv4 peer) is read as the IPv4 address it is.
pub fn client_address(
    peer: IpAddr,
    headers: &HeaderMap,
    trusted: &[IpNet],
    header: ForwardingHeader,
) -> IpAddr {
    let peer = peer.to_canonical();
    let is_trusted = |address: &IpAddr| trusted.iter().any(|net| net.contains(address));
    if !is_trusted(&peer) {
        return peer;
    }
    let chain = forwarded_for(headers, header);
    chain
        .iter()
        .rev()
        .find(|address| !is_trusted(address))
        .or(chain.first())
        .copied()
        .unwrap_or(peer)
}

/// What the per-address limits count by: an IPv4 address, or the /64 network of an IPv6 one (one
/// subscriber's usual share, from which a client may take any number of addresses: counted one by
/// one, each would have its own limits). An IPv4 address written as IPv6 counts as itself.
pub fn limited_as(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into()),
        },
    }
}

/// The addresses a request was forwarded for in `header`, first client first. Entries that are
/// not addresses (`unknown`, obfuscated names) are skipped.
fn forwarded_for(headers: &HeaderMap, header: ForwardingHeader) -> Vec<IpAddr> {
    let values = |name| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<_>>()
    };
    match header {
        ForwardingHeader::Forwarded => values("forwarded")
            .iter()
            .flat_map(|element| element.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .filter(|(key, _)| key.eq_ignore_ascii_case("for"))
            .filter_map(|(_, node)| parse_node(node))
            .collect(),
        ForwardingHeader::XForwardedFor => values("x-forwarded-for")
            .into_iter()
            .filter_map(parse_node)
            .collect(),
    }
}

/// `192.0.2.1`, `192.0.2.1:4711`, `"[2001:db8::1]:4711"` or `2001:db8::1`.
fn parse_node(node: &str) -> Option<IpAddr> {
    parse_address(node).map(|address| address.to_canonical())
}

fn parse_address(node: &str) -> Option<IpAddr> {
    let node = node.trim().trim_matches('"');
    if let Ok(address) = node.parse() {
        return Some(address);
    }
    if let Some(rest) = node.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    let (host, _port) = node.rsplit_once(':')?;
    host.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    const PROXY: &str = "10.0.0.5";
    const XFF: ForwardingHeader = ForwardingHeader::XForwardedFor;

    fn trusted() -> Vec<IpNet> {
        vec!["10.0.0.0/8".parse().unwrap()]
    }

    #[test]
    fn an_ipv6_client_is_limited_by_its_64_network() {
        let network = limited_as(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
        assert_eq!(network, ip("2001:db8:1:2::"));
        assert_eq!(limited_as(ip("2001:db8:1:2::9")), network);
        assert_ne!(limited_as(ip("2001:db8:1:3::9")), network);
        assert_eq!(limited_as(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(limited_as(ip("192.0.2.7")), ip("192.0.2.7"));
    }

    #[test]
    fn an_ipv4_proxy_seen_by_a_dual_stack_listener_is_trusted() {
        let mapped = ip("::ffff:10.0.0.5");
        let forwarded = headers(&[("x-forwarded-for", "198.51.100.9, ::ffff:10.0.0.6")]);
        assert_eq!(
            client_address(mapped, &forwarded, &trusted(), XFF),
            ip("198.51.100.9")
        );
        let visitor = ip("::ffff:203.0.113.4");
        assert_eq!(
            client_address(visitor, &forwarded, &trusted(), XFF),
            ip("203.0.113.4")
        );
    }

    #[test]
    fn forwarding_headers_from_an_untrusted_peer_are_ignored() {
        let spoofed = headers(&[
            ("x-forwarded-for", "198.51.100.9"),
            ("forwarded", "for=198.51.100.9"),
        ]);
        assert_eq!(
            client_address(ip("203.0.113.4"), &spoofed, &trusted(), XFF),
            ip("203.0.113.4")
        );
        assert_eq!(
            client_address(ip(PROXY), &spoofed, &[], XFF),
            ip(PROXY),
            "no proxy is trusted by default"
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_client_in_x_forwarded_for() {
        let forwarded = headers(&[("x-forwarded-for", "198.51.100.9")]);
        assert_eq!(
            client_address(ip(PROXY), &forwarded, &trusted(), XFF),
            ip("198.51.100.9")
        );
    }

    #[test]
    fn the_client_is_the_last_address_before_the_trusted_proxies() {
        // The client wrote a false first entry; the proxies appended the real ones.
        let chain = headers(&[
            ("x-forwarded-for", "1.2.3.4, 198.51.100.9"),
            ("x-forwarded-for", "10.1.1.1"),
        ]);
        assert_eq!(
            client_address(ip(PROXY), &chain, &trusted(), XFF),
            ip("198.51.100.9")
        );
    }

    #[test]
    fn forwarded_is_read_with_ports_quotes_and_ipv6() {
        let forwarded = headers(&[(
            "forwarded",
            r#"for="[2001:db8::7]:4711";proto=https, for=10.2.2.2:80"#,
        )]);
        assert_eq!(
            client_address(
                ip(PROXY),
                &forwarded,
                &trusted(),
                ForwardingHeader::Forwarded
            ),
            ip("2001:db8::7")
        );
    }

    #[test]
    fn a_trusted_proxy_without_forwarding_headers_is_the_client() {
        assert_eq!(
            client_address(ip(PROXY), &HeaderMap::new(), &trusted(), XFF),
            ip(PROXY)
        );
        let unknown = headers(&[("x-forwarded-for", "unknown")]);
        assert_eq!(
            client_address(ip(PROXY), &unknown, &trusted(), XFF),
            ip(PROXY)
        );
    }

    #[test]
    fn the_header_the_proxy_does_not_write_is_the_clients_own_and_ignored() {
        // nginx appends to X-Forwarded-For and passes a client's Forwarded on as it came.
        let both = headers(&[
            ("forwarded", "for=198.51.100.66"),
            ("x-forwarded-for", "203.0.113.4"),
        ]);
        assert_eq!(
            client_address(ip(PROXY), &both, &trusted(), XFF),
            ip("203.0.113.4")
        );
        // A proxy that writes Forwarded passes a client's X-Forwarded-For on as it came.
        let both = headers(&[
            ("forwarded", "for=203.0.113.4"),
            ("x-forwarded-for", "198.51.100.66"),
        ]);
        assert_eq!(
            client_address(ip(PROXY), &both, &trusted(), ForwardingHeader::Forwarded),
            ip("203.0.113.4")
        );
    }
}
