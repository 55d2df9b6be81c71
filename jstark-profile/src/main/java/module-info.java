/** The timing report, analyses and exports of recorded timelines, for the CLI. */
// qualified exports name the modules above this one, not yet built when this one compiles
@SuppressWarnings("module")
module io.jstark.profile {
    requires io.jstark.instrument;
    requires com.fasterxml.jackson.core;

    exports io.jstark.profile to
            io.jstark.cli;
    exports io.jstark.profile.analysis to
            io.jstark.cli;
    exports io.jstark.profile.report to
            io.jstark.cli;
}
