//! Who creates tables: the open tables of each address and its creation
//! rate, checked against [`TableLimits`] before a table is made.

use crate::Registry;
use crate::limits::{PerMinute, TableLimits};
use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Duration;

/// Buckets kept before the full ones (the addresses quiet for a minute)
/// are forgotten.
const BUCKETS_KEPT: usize = 4_096;

/// Why a table was not created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CreateRefused {
    /// The server has its most open tables.
    ServerFull { max: usize },
    /// This address has its most open tables.
    AddressFull { max: usize },
    /// This address creates tables too fast.
    TooFast { per_minute: u32, retry: Duration },
}

/// The open tables each address created, and its creation rate.
#[derive(Default)]
pub struct Creators {
    tables: HashMap<IpAddr, Vec<String>>,
    buckets: HashMap<IpAddr, PerMinute>,
}

impl Creators {
    /// Whether `addr` may create a table now (taking one from its rate if
    /// so); call [`Creators::created`] once it is.
    ///
    /// # Errors
    /// A cap or the rate refuses it.
    pub fn admit(
        &mut self,
        addr: IpAddr,
        limits: &TableLimits,
        registry: &Registry,
    ) -> Result<(), CreateRefused> {
        if registry.open_count() >= limits.max_tables {
            return Err(CreateRefused::ServerFull {
                max: limits.max_tables,
            });
        }
        let own = self.tables.entry(addr).or_default();
        own.retain(|id| registry.is_open(id));
        if own.len() >= limits.max_tables_per_address {
            return Err(CreateRefused::AddressFull {
                max: limits.max_tables_per_address,
            });
        }
        let per_minute = limits.creations_per_minute;
        if self.buckets.len() >= BUCKETS_KEPT {
            self.buckets.retain(|_, b| !b.is_full(per_minute));
        }
        self.buckets
            .entry(addr)
            .or_insert_with(|| PerMinute::full(per_minute))
            .take(per_minute)
            .map_err(|retry| CreateRefused::TooFast { per_minute, retry })
    }

    /// Table `id` was created by `addr`.
    pub fn created(&mut self, addr: IpAddr, id: String, registry: &Registry) {
        self.tables.entry(addr).or_default().push(id);
        // Addresses whose tables have all closed are forgotten.
        if self.tables.len() >= BUCKETS_KEPT {
            self.tables.retain(|_, ids| {
                ids.retain(|id| registry.is_open(id));
                !ids.is_empty()
            });
        }
    }
}
