package io.jstark.cli;

import io.jstark.cli.BenchScaling.Metric;
import io.jstark.cli.BenchScaling.Point;
import io.jstark.instrument.ByteSize;
import io.jstark.profile.analysis.TextTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The text tables of {@code jstark bench scaling}: the sizes measured, their growth and the fits over them. */
final class ScalingTables {
    private ScalingTables() {}

    /** A row per size: its tables, rows and cells, the median prove time and its range, the median peaks. */
    static String sizeTable(List<Point> points) {
        TextTable table = new TextTable(
                TextTable.Column.left("size"),
                TextTable.Column.right("tables"),
                TextTable.Column.right("rows"),
                TextTable.Column.right("main cells"),
                TextTable.Column.right("prove s (median)"),
                TextTable.Column.right("min..max s"),
                TextTable.Column.right("off-heap peak MiB"),
                TextTable.Column.right("heap pools peak MiB"));
        for (Point p : points) {
            long min = Arrays.stream(p.times()).min().orElseThrow();
            long max = Arrays.stream(p.times()).max().orElseThrow();
            table.row(
                    "2^" + p.logSize(),
                    p.tables(),
                    String.format("%,d", p.rows()),
                    String.format("%,d", p.cells()),
                    String.format(Locale.ROOT, "%.3f", p.medianNanos() / 1e9),
                    String.format(Locale.ROOT, "%.3f..%.3f", min / 1e9, max / 1e9),
                    ByteSize.mib(p.offHeapBytes()),
                    ByteSize.mib(p.heapBytes()));
        }
        return table.render();
    }

    /** Between consecutive sizes: how much the rows, n log2 n and the time grew, and the time per million rows. */
    static String growth(List<Point> points) {
        TextTable t = new TextTable(
                TextTable.Column.left("from -> to"),
                TextTable.Column.right("rows x"),
                TextTable.Column.right("n log2 n x"),
                TextTable.Column.right("prove time x"),
                TextTable.Column.right("time x / n log2 n x"),
                TextTable.Column.right("s per million rows (at 'to')"));
        for (int i = 1; i < points.size(); i++) {
            Point a = points.get(i - 1);
            Point b = points.get(i);
            double time = b.seconds() / a.seconds();
            double nLogN = b.rowsLog2Rows() / a.rowsLog2Rows();
            t.row(
                    "2^" + a.logSize() + " -> 2^" + b.logSize(),
                    ratio((double) b.rows() / a.rows()),
                    ratio(nLogN),
                    ratio(time),
                    ratio(time / nLogN),
                    String.format(Locale.ROOT, "%.3f", b.seconds() / (b.rows() / 1e6)));
        }
        return "growth between consecutive sizes (n log2 n summed over the tables: an NTT-bound proof's time grows with it)\n"
                + t.render();
    }

    /**
     * The fit a * n log2 n + b of the time ({@link LinearFit#relative}: each size counts by its relative error), with
     * the residual at each size as a share of the measured time, and what the fit's worst miss says.
     */
    static String nLogNFit(List<Point> points, LinearFit fit) {
        TextTable t = new TextTable(
                TextTable.Column.left("size"),
                TextTable.Column.right("measured s"),
                TextTable.Column.right("fit s"),
                TextTable.Column.right("residual %"));
        double[] fitted = fitted(points, fit);
        int worst = 0;
        List<String> negative = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            double measured = points.get(i).seconds();
            double residual = (measured - fitted[i]) / measured;
            if (Math.abs(residual)
                    > Math.abs((points.get(worst).seconds() - fitted[worst])
                            / points.get(worst).seconds())) {
                worst = i;
            }
            if (fitted[i] <= 0) {
                negative.add("2^" + points.get(i).logSize());
            }
            t.row(
                    "2^" + points.get(i).logSize(),
                    String.format(Locale.ROOT, "%.3f", measured),
                    String.format(Locale.ROOT, "%.3f", fitted[i]) + (fitted[i] <= 0 ? " (<= 0!)" : ""),
                    String.format(Locale.ROOT, "%+.1f", 100 * residual));
        }
        Point w = points.get(worst);
        String verdict = String.format(
                Locale.ROOT,
                "the fit misses the measured time by up to %.1f%% (at 2^%d)",
                100 * Math.abs((w.seconds() - fitted[worst]) / w.seconds()),
                w.logSize());
        if (!negative.isEmpty()) {
            verdict += " and predicts no time at all at " + String.join(", ", negative)
                    + ": a * n log2 n + b does not describe" + " these sizes";
        }
        return String.format(
                        Locale.ROOT,
                        "least-squares fit of the prove time: a * n log2 n + b, each size weighted by its relative"
                                + " error (an unweighted fit follows the largest size alone): a = %.4g ns per row x log2(rows), b = %.4f s%n",
                        fit.slope() * 1e9,
                        fit.intercept())
                + t.render() + verdict + "; a size outside the measured ones can miss by more.\n";
    }

    static double[] fitted(List<Point> points, LinearFit fit) {
        return points.stream().mapToDouble(p -> fit.at(p.rowsLog2Rows())).toArray();
    }

    /** The least-squares line per million rows of each metric, {@code fits} in the order of {@code metrics}. */
    static String lineTable(List<Metric> metrics, List<LinearFit> fits) {
        TextTable fitTable = new TextTable(
                TextTable.Column.left("metric"),
                TextTable.Column.right("slope per million rows"),
                TextTable.Column.right("intercept"),
                TextTable.Column.right("R^2"));
        for (int i = 0; i < metrics.size(); i++) {
            Metric m = metrics.get(i);
            LinearFit fit = fits.get(i);
            fitTable.row(
                    m.name() + " (" + m.unit() + ")",
                    String.format(Locale.ROOT, "%.4f %s", fit.slope(), m.unit()),
                    String.format(Locale.ROOT, "%.4f %s", fit.intercept(), m.unit()),
                    Double.isNaN(fit.rSquared()) ? "-" : String.format(Locale.ROOT, "%.4f", fit.rSquared()));
        }
        return "least-squares line per metric over the sizes (x = million rows, all tables together)"
                + System.lineSeparator()
                + fitTable.render();
    }

    /** What one slope per million rows leaves out, from this run's own figures. */
    static String whatTheLineHides(List<Point> points, LinearFit timeLine) {
        Point first = points.getFirst();
        Point last = points.getLast();
        double perRowFirst = first.seconds() / (first.rows() / 1e6);
        double perRowLast = last.seconds() / (last.rows() / 1e6);
        return String.format(
                Locale.ROOT,
                "the time's line per million rows hides how the cost per row changes with the size: here %.3f s"
                        + " per million rows at 2^%d and %.3f at 2^%d (x%.2f), where n log2 n alone gives x%.2f; its slope (%.3f s) is a blend"
                        + " of them and its intercept (%+.3f s) absorbs the rest, whatever its R^2. The line describes the memory, which is"
                        + " linear; for the time, read the growth ratios and the fit's residuals above.%n",
                perRowFirst,
                first.logSize(),
                perRowLast,
                last.logSize(),
                perRowLast / perRowFirst,
                (last.rowsLog2Rows() / last.rows()) / (first.rowsLog2Rows() / first.rows()),
                timeLine.slope(),
                timeLine.intercept());
    }

    private static String ratio(double r) {
        return String.format(Locale.ROOT, "%.2f", r);
    }
}
