//! Safe targets (issue 58): a webhook URL makes the server send requests from inside the
//! operator's network. Loopback, link-local (cloud metadata: 169.254.169.254), private,
//! shared, multicast and unspecified addresses are refused, unless the operator allows a
//! range in `[events] allow_targets`: when a subscription is made, and again at every
//! delivery after DNS resolution. The delivery connects to the addresses checked (the
//! client's resolver is [`CheckedResolver`], and an IP literal is checked as such), so a
//! DNS answer that changes after the check is never followed; and no redirect is followed.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// The operator's allowed ranges (`[events] allow_targets`: `127.0.0.1/32`, `10.0.0.0/8`,
/// `::1/128`, or a bare address).
#[derive(Debug, Clone, Default)]
pub struct TargetPolicy {
    allowed: Vec<(IpAddr, u8)>,
}

/// Why a target is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub message: String,
    pub address: Option<IpAddr>,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl TargetPolicy {
    /// The policy of the configured ranges; an unreadable range is an error naming it.
    pub fn new(ranges: &[String]) -> Result<Self, String> {
        let allowed = ranges
            .iter()
            .map(|range| parse_range(range).ok_or_else(|| format!("[events] allow_targets: {range:?} is not an address or a range (address/prefix)")))
            .collect::<Result<_, _>>()?;
        Ok(Self { allowed })
    }

    /// Whether the operator allows the address.
    fn allows(&self, address: IpAddr) -> bool {
        let address = canonical(address);
        self.allowed
            .iter()
            .any(|(network, prefix)| in_range(address, *network, *prefix))
    }

    /// The address is one a target may be at: public, or allowed by the operator.
    pub fn check_address(&self, address: IpAddr) -> Result<(), Refusal> {
        if self.allows(address) {
            return Ok(());
        }
        match internal(canonical(address)) {
            Some(what) => Err(Refusal {
                message: format!(
                    "{address} is {what}: a webhook may not reach it (the server's operator can allow it in [events] allow_targets)"
                ),
                address: Some(address),
            }),
            None => Ok(()),
        }
    }

    /// The URL is one a subscription may have: `https` (or `http` to an allowed address),
    /// no credentials, and a host whose every address (resolved now) is checked.
    pub async fn check_url(&self, url: &str) -> Result<reqwest::Url, Refusal> {
        let refuse = |message: String| Refusal {
            message,
            address: None,
        };
        let parsed =
            reqwest::Url::parse(url).map_err(|e| refuse(format!("{url:?} is not a URL: {e}")))?;
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(refuse("a target URL may not hold credentials".into()));
        }
        let host = parsed
            .host_str()
            .ok_or_else(|| refuse(format!("{url:?} names no host")))?
            .to_owned();
        let port = parsed.port_or_known_default().unwrap_or(443);
        let literal = host.trim_start_matches('[').trim_end_matches(']');
        let addresses: Vec<IpAddr> = match literal.parse::<IpAddr>() {
            Ok(ip) => vec![ip],
            Err(_) => tokio::net::lookup_host((host.as_str(), port))
                .await
                .map_err(|e| refuse(format!("the target's host {host} does not resolve: {e}")))?
                .map(|a| a.ip())
                .collect(),
        };
        if addresses.is_empty() {
            return Err(refuse(format!("the target's host {host} has no address")));
        }
        for address in &addresses {
            self.check_address(*address)?;
        }
        match parsed.scheme() {
            "https" => {}
            "http" if addresses.iter().all(|a| self.allows(*a)) => {}
            other => {
                return Err(refuse(format!(
                    "the target must be https (plain http only to an address of [events] allow_targets), not {other}"
                )));
            }
        }
        Ok(parsed)
    }
}

/// IPv4-mapped and -compatible IPv6 addresses as the IPv4 address they carry.
fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(v6),
        },
        v4 => v4,
    }
}

/// What kind of internal address it is; `None`: a public one.
fn internal(address: IpAddr) -> Option<&'static str> {
    match address {
        IpAddr::V4(ip) => internal_v4(ip),
        IpAddr::V6(ip) => internal_v6(ip),
    }
}

fn internal_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    if ip.is_loopback() {
        Some("a loopback address")
    } else if ip.is_link_local() {
        Some("a link-local address (cloud metadata services live there)")
    } else if ip.is_private() {
        Some("a private address")
    } else if a == 100 && (64..128).contains(&b) {
        Some("a shared (carrier-grade NAT) address")
    } else if ip.is_unspecified() || a == 0 {
        Some("an unspecified address")
    } else if ip.is_multicast() || ip.is_broadcast() || a >= 240 {
        Some("a multicast, broadcast or reserved address")
    } else if a == 192 && b == 0 && ip.octets()[2] == 0 {
        Some("an IETF protocol address")
    } else if (a == 198 && (b == 18 || b == 19)) || ip.is_documentation() {
        Some("a benchmarking or documentation address")
    } else {
        None
    }
}

fn internal_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let first = ip.segments()[0];
    if ip.is_loopback() {
        Some("a loopback address")
    } else if ip.is_unspecified() {
        Some("an unspecified address")
    } else if (first & 0xffc0) == 0xfe80 {
        Some("a link-local address")
    } else if (first & 0xfe00) == 0xfc00 {
        Some("a private (unique local) address")
    } else if ip.is_multicast() {
        Some("a multicast address")
    } else if first == 0x64 && ip.segments()[1] == 0xff9b {
        // NAT64 carries an IPv4 address in its last 32 bits.
        let [.., c, d] = ip.segments();
        internal_v4(Ipv4Addr::from(((c as u32) << 16) | d as u32))
    } else if first == 0x2001 && ip.segments()[1] == 0x0db8 {
        Some("a documentation address")
    } else {
        None
    }
}

fn parse_range(text: &str) -> Option<(IpAddr, u8)> {
    let (address, prefix) = match text.split_once('/') {
        Some((address, prefix)) => (address, Some(prefix)),
        None => (text, None),
    };
    let address: IpAddr = address.trim().parse().ok()?;
    let max = if address.is_ipv4() { 32 } else { 128 };
    let prefix = match prefix {
        Some(p) => p.trim().parse::<u8>().ok().filter(|p| *p <= max)?,
        None => max,
    };
    Some((canonical(address), prefix))
}

fn in_range(address: IpAddr, network: IpAddr, prefix: u8) -> bool {
    match (address, network) {
        (IpAddr::V4(a), IpAddr::V4(n)) => {
            let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
            (u32::from(a) & mask) == (u32::from(n) & mask)
        }
        (IpAddr::V6(a), IpAddr::V6(n)) => {
            let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
            (u128::from(a) & mask) == (u128::from(n) & mask)
        }
        _ => false,
    }
}

/// The delivery client's resolver: the system's answer, with every address the policy
/// refuses taken out (none left: the request fails, saying why). reqwest connects to what
/// this returns, so the address checked is the address connected to.
#[derive(Debug, Clone)]
pub struct CheckedResolver {
    pub policy: Arc<TargetPolicy>,
}

impl Resolve for CheckedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy.clone();
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let mut refusals = Vec::new();
            let checked: Vec<SocketAddr> = found
                .into_iter()
                .filter(|a| match policy.check_address(a.ip()) {
                    Ok(()) => true,
                    Err(refusal) => {
                        refusals.push(refusal.message);
                        false
                    }
                })
                .collect();
            if checked.is_empty() {
                let why = if refusals.is_empty() {
                    format!("{host} has no address")
                } else {
                    format!(
                        "{host} resolves to refused addresses: {}",
                        refusals.join("; ")
                    )
                };
                return Err(why.into());
            }
            let addrs: Addrs = Box::new(checked.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_addresses_are_refused_unless_allowed() {
        let policy = TargetPolicy::default();
        for refused in [
            "127.0.0.1",
            "169.254.169.254",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
        ] {
            let address: IpAddr = refused.parse().unwrap();
            assert!(policy.check_address(address).is_err(), "{refused}");
        }
        for public in ["93.184.216.34", "2606:4700::1111", "8.8.8.8"] {
            assert!(
                policy.check_address(public.parse().unwrap()).is_ok(),
                "{public}"
            );
        }
        let allowed = TargetPolicy::new(&["127.0.0.1/32".into(), "10.0.0.0/8".into()]).unwrap();
        assert!(allowed.check_address("127.0.0.1".parse().unwrap()).is_ok());
        assert!(
            allowed
                .check_address("::ffff:127.0.0.1".parse().unwrap())
                .is_ok()
        );
        assert!(allowed.check_address("127.0.0.2".parse().unwrap()).is_err());
        assert!(allowed.check_address("10.200.0.1".parse().unwrap()).is_ok());
        assert!(
            allowed
                .check_address("169.254.169.254".parse().unwrap())
                .is_err()
        );
        assert!(TargetPolicy::new(&["nonsense".into()]).is_err());
        assert!(TargetPolicy::new(&["10.0.0.0/33".into()]).is_err());
    }

    /// The delivery client's resolver checks the addresses a name has at the time of each
    /// delivery, whatever they were when the subscription was made: a name that now
    /// resolves to loopback (DNS rebinding) yields no address to connect to.
    #[tokio::test]
    async fn the_delivery_resolver_refuses_names_that_resolve_inside() {
        let refusing = CheckedResolver {
            policy: Arc::new(TargetPolicy::default()),
        };
        let error = match refusing.resolve("localhost".parse().unwrap()).await {
            Ok(found) => panic!("resolved: {:?}", found.collect::<Vec<_>>()),
            Err(error) => error.to_string(),
        };
        assert!(error.contains("loopback"), "{error}");
        let allowing = CheckedResolver {
            policy: Arc::new(TargetPolicy::new(&["127.0.0.0/8".into(), "::1".into()]).unwrap()),
        };
        let found: Vec<SocketAddr> = allowing
            .resolve("localhost".parse().unwrap())
            .await
            .unwrap()
            .collect();
        assert!(found.iter().all(|a| a.ip().is_loopback()) && !found.is_empty());
    }

    #[tokio::test]
    async fn urls_are_checked_by_scheme_credentials_and_address() {
        let policy = TargetPolicy::new(&["127.0.0.1".into()]).unwrap();
        assert!(policy.check_url("http://127.0.0.1:9/hook").await.is_ok());
        assert!(policy.check_url("https://169.254.169.254/").await.is_err());
        assert!(policy.check_url("https://u:p@example.com/").await.is_err());
        assert!(policy.check_url("ftp://127.0.0.1/").await.is_err());
        assert!(
            TargetPolicy::default()
                .check_url("http://127.0.0.1:9/")
                .await
                .is_err()
        );
    }
}
