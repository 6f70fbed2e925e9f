//! A census as a person reads it (its counts row by row, each state with the command that
//! replays it) and as a program does (JSON).

use super::{Census, Found};
use crate::text::{group, grouped_count};

impl Census {
    /// The census as JSON: the rules' flags, the bounds, player 1's hand sizes (`held`, the
    /// least and the most), the kinds of war and the most ties a war chains (`chain`), the counts of each row (`rows`: `battles`,
    /// `words`, `placings`, `looked`, `shapes`, `taking`) and of all, and each state laid
    /// (`word`, `wars`, `held`, `hands`, `cycle`, `aligned`, `deal`, hands as lists of values from
    /// 1).
    ///
    /// ```
    /// use warsweep::shapes::{census, Bounds};
    /// use warsweep::{Deck, Preset, Settings};
    /// let rules = Settings::new(Preset::Bataille).deck(Deck::parse("4x11")?).build()?;
    /// let found = census(&rules, &Bounds::NoWar { longest: 8, ties: false })?;
    /// let json: serde_json::Value = serde_json::from_str(&found.to_json())?;
    /// assert_eq!((json["taking"].as_u64(), json["rows"][3]["taking"].as_u64()), (Some(4), Some(4)));
    /// assert_eq!(json["found"][0]["cycle"], found.found[0].cycle);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_json(&self) -> String {
        let found: Vec<serde_json::Value> = (self.found.iter())
            .map(|f| {
                let text = f.placing.to_string();
                let (word, wars) = text.split_once(' ').unwrap_or((&text, ""));
                serde_json::json!({
                    "word": word,
                    "wars": wars,
                    "held": f.hands[0].len(),
                    "hands": f.hands,
                    "cycle": f.cycle,
                    "aligned": f.aligned,
                    "deal": f.deal,
                })
            })
            .collect();
        let rows: Vec<serde_json::Value> = (self.rows.iter())
            .map(|r| {
                serde_json::json!({
                    "battles": r.battles,
                    "words": r.words,
                    "placings": r.placings,
                    "looked": r.looked,
                    "shapes": r.shapes,
                    "taking": r.taking,
                })
            })
            .collect();
        let json = serde_json::json!({
            "rules": self.rules.flags(),
            "bounds": self.bounds.to_string(),
            "held": [self.held.0, self.held.1],
            "kinds": self.kinds.iter().map(|k| k.name()).collect::<Vec<_>>(),
            "aligned": self.aligned,
            "chain": self.chain,
            "mirrored": self.mirrored,
            "rows": rows,
            "placings": self.placings,
            "looked": self.looked,
            "stopped": self.stopped,
            "shapes": self.shapes,
            "taking": self.taking,
            "found": found,
        });
        format!("{json:#}\n")
    }

    /// Writes [`Census::to_json`] to `path` whole or not at all (a temporary file renamed
    /// into place).
    ///
    /// # Errors
    ///
    /// The file system's, where the file cannot be written.
    pub fn write_json(&self, path: &std::path::Path) -> std::io::Result<()> {
        crate::output::files::write_atomically(path, self.to_json().as_bytes())
    }
}

impl std::fmt::Display for Census {
    /// A line of counts, then a line of counts for each length of word, each followed by the
    /// states laid on its shapes that take the values: its placing, its cycle, the state and
    /// the command that plays it (to `INFINITE 0`, the state being on its cycle), and a deal
    /// walked back to it with its command where there is one.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let flags = self.rules.flags();
        let n = self.rules.deck().size();
        let placings = match self.stopped {
            false => group(self.placings as u64),
            true => format!(
                "{} of {} (stopped)",
                group(self.looked as u64),
                group(self.placings as u64)
            ),
        };
        let mut kinds = match self.kinds.len() {
            3 => String::new(),
            _ => format!(", wars of kinds {}", self.kinds_named()),
        };
        if self.chain > 1 {
            kinds.push_str(&format!(", wars of 1 to {} ties in a row", self.chain));
        }
        if self.aligned {
            kinds.push_str(", aligned cycles only");
        }
        if self.mirrored {
            kinds.push_str(", each word then its mirror (the hands swapped)");
        }
        let held = match self.held {
            (1, most) if most == n - 1 => format!("every size of player 1's hand (1..{most})"),
            (least, most) => format!("player 1 holding {least}..{most} cards"),
        };
        writeln!(
            f,
            "{flags}: {}{kinds}: {placings} placings, each from {held}; shapes whose circles can be of one value: {}; taking the values: {}",
            self.bounds,
            group(self.shapes as u64),
            group(self.taking as u64),
        )?;
        let mut found = self.found.iter().peekable();
        for row in &self.rows {
            let looked = match row.looked == row.placings {
                true => String::new(),
                false => format!(" ({} looked at, stopped)", group(row.looked as u64)),
            };
            let counted = |n: usize, noun| grouped_count(n as u64, noun);
            writeln!(
                f,
                "  {} battles: {}, {}{looked}, {}, {} taking the values",
                row.battles,
                counted(row.words, "word"),
                counted(row.placings, "placing"),
                counted(row.shapes, "shape"),
                group(row.taking as u64),
            )?;
            while let Some(state) = found.next_if(|s| s.placing.word.len() == row.battles) {
                state.show(f, &flags)?;
            }
        }
        Ok(())
    }
}

impl Census {
    /// Its kinds of war by name, `-` between.
    fn kinds_named(&self) -> String {
        let names: Vec<&str> = self.kinds.iter().map(|k| k.name()).collect();
        names.join("-")
    }
}

impl Found {
    /// The state with its placing and cycle, the command that plays it, and its deal.
    fn show(&self, f: &mut std::fmt::Formatter<'_>, flags: &str) -> std::fmt::Result {
        let text = |hands: &[Vec<u8>; 2]| {
            hands.clone().map(|h| {
                let text: Vec<String> = h.iter().map(u8::to_string).collect();
                text.join(",")
            })
        };
        let [one, two] = text(&self.hands);
        let held = self.hands[0].len();
        let aligned = if self.aligned { " (aligned)" } else { "" };
        writeln!(
            f,
            "    {}, player 1 holding {held}, a cycle of {} rounds{aligned}: {one}|{two}",
            self.placing,
            group(self.cycle)
        )?;
        writeln!(f, "      printf '{one}\\n{two}\\n' | warsweep play {flags}")?;
        if let Some(deal) = &self.deal {
            let [one, two] = text(deal);
            writeln!(f, "      a deal into it: {one}|{two}")?;
            writeln!(f, "      printf '{one}\\n{two}\\n' | warsweep play {flags}")?;
        }
        Ok(())
    }
}
