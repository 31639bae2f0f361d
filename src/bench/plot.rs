//! The SVG plot of a benchmark run: synthesis time and oracle calls per kernel, naive vs paper vs
//! informed, as grouped bars on logarithmic axes.
//!
//! plotters is built with its SVG backend only and without its `ttf`/`ab_glyph` font features:
//! text is written as SVG `<text>` elements and laid out with plotters' built-in size estimate,
//! so no system fonts or fontconfig are needed.

use super::{Method, Row};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Bar colours per method, like [`Method::ALL`].
const COLOURS: [RGBColor; 3] = [RGBColor(160, 160, 160), RGBColor(230, 140, 40), RGBColor(40, 110, 200)];

/// One panel: a value per kernel and method (`None`: no value, no bar).
struct Panel<'a> {
    title: &'a str,
    values: Vec<[Option<f64>; 3]>,
}

/// Renders the plot as an SVG document. Kernels that failed to load have no bars.
///
/// Errors: plotters reports a drawing error (the message says which).
pub fn svg(rows: &[Row]) -> Result<String, String> {
    let names: Vec<String> = rows.iter().map(|r| format!("{}/{}", r.suite, r.name)).collect();
    let per = |f: fn(&super::Outcome) -> Option<f64>| -> Vec<[Option<f64>; 3]> {
        rows.iter().map(|r| Method::ALL.map(|m| r.outcome(m).and_then(f))).collect()
    };
    let time = Panel {
        title: "synthesis CPU time per kernel (ms, log scale)",
        values: per(|o| Some(o.cpu_ms()).filter(|v| v.is_finite() && *v > 0.0)),
    };
    let calls = Panel {
        title: "oracle calls per kernel (log scale)",
        values: per(|o| Some(o.oracle_calls() as f64).filter(|v| *v > 0.0)),
    };
    let width = (160 + 26 * rows.len()).max(900) as u32;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, 1000)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (top, bottom) = root.split_vertically(500);
        draw_panel(&top, &time, &names, false)?;
        draw_panel(&bottom, &calls, &names, true)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

fn draw_panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    panel: &Panel<'_>,
    names: &[String],
    x_labels: bool,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let n = names.len().max(1);
    let max = panel.values.iter().flatten().flatten().copied().fold(1.0f64, f64::max);
    let min = panel.values.iter().flatten().flatten().copied().fold(max, f64::min).max(1e-3);
    // Bars grow from below the smallest value so that every bar is visible on the log axis.
    let floor = min / 2.0;
    let mut chart = ChartBuilder::on(area)
        .caption(panel.title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(if x_labels { 170 } else { 10 })
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..n as f64, (floor..max * 2.0).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_label_style(("sans-serif", 11))
        .draw()
        .map_err(err)?;
    for (mi, m) in Method::ALL.iter().enumerate() {
        let colour = COLOURS[mi];
        let bars = panel.values.iter().enumerate().filter_map(move |(i, v)| {
            v[mi].map(|v| {
                let x0 = i as f64 + 0.1 + 0.27 * mi as f64;
                Rectangle::new([(x0, floor), (x0 + 0.25, v.max(floor))], colour.filled())
            })
        });
        chart
            .draw_series(bars)
            .map_err(err)?
            .label(m.name())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
    }
    if x_labels {
        // The kernel names, drawn here rather than by the mesh: plotters centres rotated tick
        // labels on the tick, so half of each name would fall inside the plot.
        let style = TextStyle::from(("sans-serif", 11).into_font().transform(FontTransform::Rotate90))
            .pos(Pos::new(HPos::Left, VPos::Center));
        let (bx, by) = area.get_base_pixel();
        for (i, name) in names.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(i as f64 + 0.5, floor));
            area.draw_text(name, &style, (x - bx, y - by + 6)).map_err(err)?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{KernelResult, Original, Outcome};
    use crate::config::Ratio;

    #[test]
    fn plot_has_a_bar_per_method_and_the_kernel_names() {
        let o = |v| Outcome::Placed {
            barriers: 1,
            syncwarps: 0,
            cost: Ratio::new(1, 1),
            oracle_calls: v,
            time_ms: 3.0,
            cpu_ms: 3.0,
            verified: true,
        };
        let rows = vec![Row {
            suite: "micro".into(),
            name: "fig2".into(),
            path: "fig2.cu".into(),
            loc: 5,
            result: Ok(KernelResult {
                original: Original { barriers: 1, syncwarps: 0, cost: Ratio::new(1, 1), verified: true },
                methods: [o(7), o(3), o(2)],
            }),
        }];
        let s = svg(&rows).expect("plot");
        assert!(s.starts_with("<svg"), "{}", &s[..80.min(s.len())]);
        assert!(s.contains("micro/fig2"));
        for m in Method::ALL {
            assert!(s.contains(m.name()), "legend lacks {}", m.name());
        }
    }
}
