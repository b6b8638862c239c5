//! SVG plots with plotters' SVG backend (text is left to the viewer's fonts: nothing to load).

use crate::tables::{checking_instructions, ratio, wall};
use crate::{AppResult, CONFIGS};
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const COLOURS: [RGBColor; 4] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
];

/// Bars of several series for each group (application), on a log or linear y axis.
struct Bars<'a> {
    title: &'a str,
    y_desc: &'a str,
    groups: Vec<&'a str>,
    series: Vec<(String, Vec<f64>)>,
    log: bool,
}

impl Bars<'_> {
    fn svg(&self) -> Result<String, String> {
        let values = self.series.iter().flat_map(|(_, v)| v.iter().copied());
        let finite: Vec<f64> = values
            .filter(|v| v.is_finite() && (!self.log || *v > 0.0))
            .collect();
        let max = finite.iter().copied().fold(1.0, f64::max);
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (800, 450)).into_drawing_area();
            root.fill(&WHITE).map_err(|e| e.to_string())?;
            let n = self.groups.len() as f64;
            let mut chart = ChartBuilder::on(&root);
            chart
                .caption(self.title, ("sans-serif", 20))
                .margin(10)
                .x_label_area_size(35)
                .y_label_area_size(70);
            if self.log {
                let smallest = finite.iter().copied().fold(f64::INFINITY, f64::min);
                let min = if smallest.is_finite() {
                    smallest / 2.0
                } else {
                    0.5
                };
                let mut c = chart
                    .build_cartesian_2d(0.0..n, (min..max * 8.0).log_scale())
                    .map_err(|e| e.to_string())?;
                self.draw(&mut c, min)?;
            } else {
                let mut c = chart
                    .build_cartesian_2d(0.0..n, 0.0..max * 1.4)
                    .map_err(|e| e.to_string())?;
                self.draw(&mut c, 0.0)?;
            }
            root.present().map_err(|e| e.to_string())?;
        }
        Ok(out)
    }

    fn draw<'a, Y>(
        &self,
        c: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, Y>>,
        base: f64,
    ) -> Result<(), String>
    where
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        c.configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_label_formatter(&|v| {
                if v.abs() >= 1e4 {
                    format!("{v:.0e}")
                } else {
                    format!("{v}")
                }
            })
            .y_desc(self.y_desc)
            .draw()
            .map_err(|e| e.to_string())?;
        // Group names under the middle of each group (plotters picks its own tick positions).
        let name_style = TextStyle::from(("sans-serif", 14)).pos(Pos::new(HPos::Center, VPos::Top));
        c.draw_series(
            self.groups
                .iter()
                .enumerate()
                .map(|(i, g)| Text::new(g.to_string(), (i as f64 + 0.5, base), name_style.clone())),
        )
        .map_err(|e| e.to_string())?;
        let width = 0.8 / self.series.len() as f64;
        for (k, (name, vals)) in self.series.iter().enumerate() {
            let colour = COLOURS[k % COLOURS.len()];
            let bars = vals
                .iter()
                .enumerate()
                .filter(|(_, v)| v.is_finite() && **v > base)
                .map(|(i, v)| {
                    let x0 = i as f64 + 0.1 + k as f64 * width;
                    Rectangle::new([(x0, base), (x0 + width, *v)], colour.filled())
                });
            c.draw_series(bars)
                .map_err(|e| e.to_string())?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled())
                });
        }
        // Above the bars: the axes leave headroom for it.
        c.configure_series_labels()
            .position(SeriesLabelPosition::UpperMiddle)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())
    }
}

fn label(mode: &str, all: bool) -> String {
    if all {
        format!("{mode} --all")
    } else {
        mode.to_string()
    }
}

/// Overhead ratios of the checked configurations on the race-free variants.
fn overhead_series(
    results: &[AppResult],
    metric: fn(&crate::gmrace::RunOutcome) -> f64,
) -> Vec<(String, Vec<f64>)> {
    CONFIGS
        .iter()
        .filter(|(mode, _)| *mode != "off")
        .map(|&(mode, all)| {
            let vals = results
                .iter()
                .map(|a| {
                    ratio(
                        metric(a.safe.get(mode, all)),
                        metric(a.safe.get("off", false)),
                    )
                })
                .collect();
            (label(mode, all), vals)
        })
        .collect()
}

/// Every plot, with its file name.
pub fn all(results: &[AppResult]) -> Result<Vec<(&'static str, String)>, String> {
    let groups: Vec<&str> = results.iter().map(|a| a.name).collect();
    let fig4 = Bars {
        title: "Overhead on the CPU device (executed thread-instructions, x of uninstrumented)",
        y_desc: "slowdown (log scale)",
        groups: groups.clone(),
        series: overhead_series(results, |r| r.thread_instructions as f64),
        log: true,
    };
    let wall_plot = Bars {
        title: "Overhead on the CPU device (wall time, x of uninstrumented)",
        y_desc: "slowdown (log scale)",
        groups: groups.clone(),
        series: overhead_series(results, wall),
        log: true,
    };
    let pruning = Bars {
        title: "Static pruning: checking thread-instructions, with and without the analyzer",
        y_desc: "thread-instructions (log scale)",
        groups: groups.clone(),
        series: ["flag", "stmt"]
            .iter()
            .flat_map(|m| [(*m, false), (*m, true)])
            .map(|(m, all)| {
                let vals = results
                    .iter()
                    .map(|a| checking_instructions(&a.safe, m, all) as f64)
                    .collect();
                (label(m, all), vals)
            })
            .collect(),
        log: true,
    };
    let analyzer = Bars {
        title: "Analyzer time per kernel (gmrace analyze, wall)",
        y_desc: "ms",
        groups,
        series: vec![
            (
                "race-free".into(),
                results.iter().map(|a| a.safe.analysis.wall_ms).collect(),
            ),
            (
                "racy".into(),
                results.iter().map(|a| a.racy.analysis.wall_ms).collect(),
            ),
        ],
        log: false,
    };
    Ok(vec![
        ("paper-fig4-overhead.svg", fig4.svg()?),
        ("paper-overhead-wall.svg", wall_plot.svg()?),
        ("paper-pruning.svg", pruning.svg()?),
        ("paper-analyzer-time.svg", analyzer.svg()?),
    ])
}
