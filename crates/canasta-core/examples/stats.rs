use canasta_core::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: u8 = args.get(1).map(|s| s.parse().unwrap()).unwrap_or(4);
    let hands: usize = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(1000);
    let verbose = args.get(3).is_some();
    let rules = Rules::preset("classic", Some(players), None).unwrap();
    let mut rng = Rng::new(1);
    let (mut out, mut stock, mut decisions, mut maxlist, mut concealed) = (0, 0, 0usize, 0usize, 0);
    let mut buf = ActionList::new();
    let t = std::time::Instant::now();
    for h in 0..hands {
        let mut g = GameState::new(rules.clone());
        g.deal(&shuffled_deck(&rules, &mut rng), h % players as usize)
            .unwrap();
        while matches!(g.phase(), Phase::Draw | Phase::Play | Phase::Answer) {
            g.legal_actions_into(&mut buf);
            maxlist = maxlist.max(buf.len());
            if buf.is_empty() {
                let o = g.observe(g.to_act());
                println!(
                    "EMPTY seat {} phase {:?} hand {} melds {:?} pile top {:?} frozen {} stock {} must {} answer {:?} side_of {:?}",
                    g.to_act(),
                    g.phase(),
                    g.hand(g.to_act()),
                    o.melds,
                    g.pile_top(),
                    g.pile_frozen(),
                    g.stock_len(),
                    o.must_go_out,
                    o.answer,
                    o.side_of
                );
                std::process::exit(1);
            }
            let a = buf[rng.below(buf.len())];
            if verbose {
                println!(
                    "{} {:?} hand={} | {}",
                    g.to_act(),
                    g.phase(),
                    g.hand(g.to_act()),
                    a
                );
            }
            g.apply_unchecked(a);
            decisions += 1;
        }
        let r = g.last_hand().unwrap();
        if verbose {
            println!("{:?}", r);
        }
        match r.reason {
            HandEndReason::Out => out += 1,
            HandEndReason::Stock => stock += 1,
        }
        if r.concealed {
            concealed += 1;
        }
    }
    let el = t.elapsed().as_secs_f64();
    println!(
        "hands {hands} out {out} stock {stock} concealed {concealed} decisions/hand {:.1} maxlist {maxlist} hands/s {:.0}",
        decisions as f64 / hands as f64,
        hands as f64 / el
    );
}
