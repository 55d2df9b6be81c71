package io.jstark.profile.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table with aligned columns: a header line, a rule, then the rows; columns separated by two
 * spaces, text left-aligned and numbers right-aligned as each column says. Cells are rendered with
 * {@link String#valueOf}; null prints as {@code -}.
 */
public final class TextTable {
    public enum Align {
        LEFT,
        RIGHT
    }

    public record Column(String header, Align align) {
        public static Column left(String header) {
            return new Column(header, Align.LEFT);
        }

        public static Column right(String header) {
            return new Column(header, Align.RIGHT);
        }
    }

    private static final String GAP = "  ";

    private final List<Column> columns;
    private final List<String[]> rows = new ArrayList<>();

    public TextTable(Column... columns) {
        if (columns.length == 0) {
            throw new IllegalArgumentException("a table needs at least one column");
        }
        this.columns = List.of(columns);
    }

    public TextTable row(Object... cells) {
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException(
                    "row has " + cells.length + " cells, table has " + columns.size() + " columns");
        }
        String[] text = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            text[i] = cells[i] == null ? "-" : String.valueOf(cells[i]);
        }
        rows.add(text);
        return this;
    }

    public int rowCount() {
        return rows.size();
    }

    /** The table, every line ending in a newline, no trailing spaces. */
    public String render() {
        int[] widths = new int[columns.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = columns.get(c).header().length();
            for (String[] row : rows) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        StringBuilder out = new StringBuilder();
        String[] header = new String[widths.length];
        String[] rule = new String[widths.length];
        for (int c = 0; c < widths.length; c++) {
            header[c] = columns.get(c).header();
            rule[c] = "-".repeat(widths[c]);
        }
        appendLine(out, header, widths);
        appendLine(out, rule, widths);
        for (String[] row : rows) {
            appendLine(out, row, widths);
        }
        return out.toString();
    }

    private void appendLine(StringBuilder out, String[] cells, int[] widths) {
        int lineStart = out.length();
        for (int c = 0; c < cells.length; c++) {
            if (c > 0) {
                out.append(GAP);
            }
            String pad = " ".repeat(widths[c] - cells[c].length());
            if (columns.get(c).align() == Align.RIGHT) {
                out.append(pad).append(cells[c]);
            } else {
                out.append(cells[c]).append(pad);
            }
        }
        int end = out.length();
        while (end > lineStart && out.charAt(end - 1) == ' ') {
            end--;
        }
        out.setLength(end);
        out.append('\n');
    }

    @Override
    public String toString() {
        return render();
    }
}
