//! Generates a few IDs and takes one apart: `cargo run -p ulid-flake-core --example quickstart
//! [ID ...]` inspects the IDs given as arguments (Base32 or integer) instead.

use ulid_flake_core::generator::{Generator, Layout};
use ulid_flake_core::{Epoch, Error, Id, UlidFlake};

struct User;

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.is_empty() {
        let mut failed = false;
        for arg in &args {
            match arg.parse::<UlidFlake>().or_else(|error| {
                arg.parse::<i64>()
                    .map_err(|_| error)
                    .and_then(UlidFlake::try_from)
            }) {
                Ok(id) => inspect(id),
                Err(error) => {
                    eprintln!("{arg:?}: {error}");
                    failed = true;
                }
            }
        }
        std::process::exit(i32::from(failed));
    }

    println!("Five IDs from the process-wide generator, in order:");
    for _ in 0..5 {
        let id: Id<User> = Id::generate()?;
        println!("  {id}  {:>19}  {id:?}", id.to_i64());
    }

    let replica = Generator::builder()
        .layout(Layout::Scalable { scalability_id: 3 })
        .build()?;
    println!("\nReplica 3 (scalable layout):");
    inspect(replica.generate()?);

    println!("\nA bad ID is a clear error:");
    for bad in ["00CMXB6TAK4SI", "8000000000000", "00CMXB6TAK4S"] {
        println!("  {bad:?}: {}", bad.parse::<UlidFlake>().unwrap_err());
    }
    Ok(())
}

fn inspect(id: UlidFlake) {
    let unix_ms = id.unix_ms(Epoch::DEFAULT);
    println!("  {id}");
    println!("    integer      {}", id.to_u64());
    println!("    hex          {}", id.to_hex());
    println!(
        "    timestamp    {} ms since 2024-01-01 (Unix ms {unix_ms})",
        id.ms_since_epoch()
    );
    println!("    randomness   {} (20-bit reading)", id.randomness());
    println!(
        "    scalable     randomness {}, scalability id {}",
        id.scalable_randomness(),
        id.scalability_id()
    );
    println!("    bytes        {:02X?}", id.to_bytes());
}
