package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.protocol.Statement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The statement file: what is written reads back equal; what is malformed is refused naming the file and the field. */
class StatementFileTest {
    @TempDir
    Path dir;

    @Test
    void aStatementRoundTrips() throws Exception {
        Statement s = new Statement(List.of(
                new Statement.Table("cpu", "vm-cpu", 6, 6, new long[] {0xFFFFFFFF00000000L, 0, 42}),
                new Statement.Table("range16", "range16", 4, 16, new long[0])));
        Path file = dir.resolve("s.json");
        StatementFile.write(s, file);
        assertThat(Files.readString(file)).contains("\"18446744069414584320\"").contains("\"min\" : 4");
        assertThat(StatementFile.read(file)).isEqualTo(s);
    }

    @Test
    void malformedFilesNameWhatIsWrong() throws Exception {
        Path file = dir.resolve("bad.json");
        for (String[] c : new String[][] {
            {"[1, 2", "is not JSON"},
            {"{\"tables\": []}", "lacks \"format\""},
            {"{\"format\": \"jstark-statement-1\", \"tables\": []}", "\"tables\" must be a non-empty array"},
            {
                "{\"format\": \"jstark-statement-1\", \"tables\": [{\"name\": \"a\", \"definition\": \"d\", \"logHeight\": 3, "
                        + "\"publicInputs\": [\"-1\"]}]}",
                "public input 0 '-1'"
            },
            {
                "{\"format\": \"jstark-statement-1\", \"tables\": [{\"name\": \"a\", \"definition\": \"d\", \"logHeight\": 40, "
                        + "\"publicInputs\": []}]}",
                "table 0: table 'a': in the expected statement: height 2^40 is outside 2^1..2^28"
            }
        }) {
            Files.writeString(file, c[0]);
            assertThatThrownBy(() -> StatementFile.read(file))
                    .as(c[0])
                    .isInstanceOf(Main.InputException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining(c[1]);
        }
    }

    /**
     * A field the file does not know is refused by name (a hoped-for "minSecurity"
     * would otherwise be ignored), public inputs are decimal strings of ASCII digits only, and Jackson's own
     * location text stays out of the message.
     */
    @Test
    void unknownFieldsAndLoosePublicInputsAreRefusedByName() throws Exception {
        Path file = dir.resolve("loose.json");
        String table = "{\"name\": \"a\", \"definition\": \"d\", \"logHeight\": 3, \"publicInputs\": [\"1\"]}";
        String one = "{\"format\": \"jstark-statement-1\", \"tables\": [" + table + "]}";
        for (String[] c : new String[][] {
            {
                one.replace("\"tables\"", "\"minSecurity\": 128, \"tables\""),
                "unknown field \"minSecurity\" (known here: format, tables)"
            },
            {
                one.replace("\"logHeight\": 3", "\"logHeight\": 3, \"options\": \"secure128\""),
                "table 0: unknown field \"options\""
            },
            {
                one.replace("\"logHeight\": 3", "\"logHeight\": {\"min\": 3, \"max\": 4, \"step\": 1}"),
                "table 0: \"logHeight\": unknown field \"step\""
            },
            {
                one.replace("[\"1\"]", "[1]"),
                "public input 0 must be a decimal string such as \"58008\"",
                "got the number 1"
            },
            {one.replace("[\"1\"]", "[18446744069414584320]"), "public input 0 must be a decimal string", "got a number"
            },
            {one.replace("[\"1\"]", "[\"+58008\"]"), "public input 0 '+58008' is not an unsigned 64-bit decimal"},
            {one.replace("[\"1\"]", "[\"\u0665\"]"), "is not an unsigned 64-bit decimal (ASCII digits only)"},
            {one.replace("[\"1\"]", "[\"18446744073709551616\"]"), "is not an unsigned 64-bit decimal"},
            {one.substring(0, one.length() - 2), "is not JSON: it ends before the JSON is complete (line 1"}
        }) {
            Files.writeString(file, c[0]);
            for (int k = 1; k < c.length; k++) {
                assertThatThrownBy(() -> StatementFile.read(file))
                        .as(c[0])
                        .isInstanceOf(Main.InputException.class)
                        .hasMessageContaining(file.toString())
                        .hasMessageContaining(c[k])
                        .hasMessageNotContaining("REDACTED");
            }
        }
    }

    /**
     * A statement file is what a verifier trusts, so it must mean one thing. A field
     * given twice (the last one wins in a map) or a second document after the first would let a file read
     * as one statement by a person or another parser and as another by jstark.
     */
    @Test
    void duplicateFieldsAndTrailingContentAreRefused() throws Exception {
        Path file = dir.resolve("ambiguous.json");
        String table = "{\"name\": \"a\", \"definition\": \"d\", \"logHeight\": 3, \"publicInputs\": [\"1\"]}";
        String one = "{\"format\": \"jstark-statement-1\", \"tables\": [" + table + "]}";
        for (String ambiguous : new String[] {
            one.replace("\"publicInputs\": [\"1\"]", "\"publicInputs\": [\"7\"], \"publicInputs\": [\"1\"]"),
            one.replace("\"logHeight\": 3", "\"logHeight\": {\"min\": 3, \"max\": 3, \"min\": 1}"),
            one.replace("\"tables\": [", "\"tables\": [], \"tables\": ["),
            one + " " + one.replace("\"1\"", "\"2\""),
            one + " trailing"
        }) {
            Files.writeString(file, ambiguous);
            assertThatThrownBy(() -> StatementFile.read(file))
                    .as(ambiguous)
                    .isInstanceOf(Main.InputException.class)
                    .hasMessageContaining(file.toString());
        }
    }
}
