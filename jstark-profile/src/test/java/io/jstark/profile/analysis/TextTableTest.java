package io.jstark.profile.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TextTableTest {

    @Test
    void alignsColumns() {
        TextTable table = new TextTable(
                TextTable.Column.left("path"), TextTable.Column.right("wall ms"), TextTable.Column.left("note"));
        table.row("prove", "12.500", "root");
        table.row("  round1", "3.000", null);
        assertThat(table.render()).isEqualTo("""
                path      wall ms  note
                --------  -------  ----
                prove      12.500  root
                  round1    3.000  -
                """);
    }

    @Test
    void rejectsRowsOfTheWrongWidth() {
        TextTable table = new TextTable(TextTable.Column.left("a"));
        assertThatThrownBy(() -> table.row("x", "y"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 cells");
    }

    @Test
    void unknownValuesPrintAsDashNotZero() {
        assertThat(Fmt.millis(-1L)).isEqualTo("-");
        assertThat(Fmt.millis(1_234_567L)).isEqualTo("1.235");
        assertThat(Fmt.percent(Double.NaN)).isEqualTo("-");
        assertThat(Fmt.ratio(2.0)).isEqualTo("2.00");
    }
}
