//! Several servers on one PostgreSQL database (`canasta serve --node-id
//! N`): each table is played by the node holding its lease
//! ([`crate::storage::Leases`]). A node renews its leases, lets go of the
//! tables it finds taken (their sockets are sent to reconnect), and takes
//! the unfinished tables whose lease ended (a node died, was stopped, or
//! lost the database): their epoch raised, each is rebuilt from its record
//! as at a restart, and its bots play on.

use crate::storage::{Leases, Owner, Quarantined, StorageError};
use crate::table::Command;
use crate::table::game::TableGame;
use crate::{App, ServerError};
use std::sync::Arc;
use tokio::sync::watch;
use tokio::time::MissedTickBehavior;

/// Tables one look for ended leases takes at most (the rest at the next).
const TAKEN_A_LOOK: i64 = 1000;

impl App {
    /// Takes the unfinished tables whose lease ended or was never taken
    /// (`own`: and those this node's lease names, at start), and plays
    /// them: each one's lease first, then its record read and replayed. A
    /// table that does not replay is quarantined (held, so that no node
    /// tries it again and again). The number of tables taken.
    ///
    /// # Errors
    /// The database failed.
    pub async fn take_orphans(&self, leases: &Leases, own: bool) -> Result<usize, ServerError> {
        let limit = if own { i64::MAX } else { TAKEN_A_LOOK };
        let mut taken = 0;
        for id in leases.orphans(own, limit).await? {
            if self.registry.live(&id).is_some() {
                continue;
            }
            match leases.acquire(&id).await {
                Ok(Owner::Mine { .. }) => {}
                // Another node came first, or the table is gone.
                Ok(Owner::Elsewhere { .. }) | Err(StorageError::NoSuchTable(_)) => continue,
                Err(e) => return Err(e.into()),
            }
            let stored = match self.storage.load(&id).await {
                Ok(Some(stored)) => TableGame::of_stored(stored),
                Ok(None) => continue,
                Err(StorageError::Corrupt { id, reason }) => Err(Quarantined { id, reason }),
                Err(e) => {
                    // Read later, by whichever node takes it then.
                    let _ = leases.release(&id).await;
                    return Err(e.into());
                }
            };
            match stored {
                Ok((meta, game)) => {
                    let handle = self.spawn_table(meta, game);
                    self.registry.insert(id, handle);
                    taken += 1;
                }
                Err(bad) => {
                    tracing::error!(table = %bad.id, reason = %bad.reason, "a stored table is quarantined: not resumed, not listed (`canasta export --check` lists it)");
                    self.storage_health.add_quarantined(bad);
                }
            }
        }
        Ok(taken)
    }

    /// This node no longer holds table `id`: its task is told to leave
    /// (its connections are closed, to reconnect to the table's owner).
    pub fn let_go(&self, id: &str) {
        if let Some(handle) = self.registry.remove(id) {
            tokio::spawn(async move {
                handle.send(Command::Lost).await;
            });
        }
    }
}

/// A node's upkeep until the server stops: its leases renewed every
/// [`crate::storage::NodeSettings::renew_every`] (the tables found taken
/// let go; every table let go once no renewal succeeded for a lease's time),
/// and the tables whose lease ended taken every
/// [`crate::storage::NodeSettings::scan_every`].
pub async fn keep(app: App, leases: Arc<Leases>, mut stopped: watch::Receiver<bool>) {
    let settings = leases.settings().clone();
    let mut renew = tokio::time::interval(settings.renew_every);
    let mut scan = tokio::time::interval(settings.scan_every);
    renew.set_missed_tick_behavior(MissedTickBehavior::Delay);
    scan.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let stopping = stopped.clone();
    let stop = async move {
        let _ = stopped.wait_for(|s| *s).await;
    };
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => return,
            _ = renew.tick() => match leases.renew().await {
                Ok(lost) => {
                    for id in lost {
                        tracing::warn!(table = %id, "another node took the table: letting it go");
                        app.let_go(&id);
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "renewing the leases failed");
                    if !leases.sure() {
                        let lost = leases.forget_all();
                        if !lost.is_empty() {
                            tracing::error!(tables = lost.len(), "no renewal for a lease's time: letting every table go");
                        }
                        for id in lost {
                            app.let_go(&id);
                        }
                    }
                }
            },
            _ = scan.tick() => {
                // A node unsure of its own leases (paused, or cut off from
                // the database) takes nobody's.
                if *stopping.borrow() || !leases.sure() {
                    continue;
                }
                match app.take_orphans(&leases, false).await {
                    Ok(0) => {}
                    Ok(n) => {
                        app.counters.took_over(n);
                        tracing::info!(tables = n, "took over tables whose lease ended");
                    }
                    Err(e) => tracing::warn!(error = %e, "taking over tables failed"),
                }
            }
        }
    }
}
