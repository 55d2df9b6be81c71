/** The jstark command. */
module io.jstark.cli {
    requires io.jstark;
    requires io.jstark.crypto;
    requires io.jstark.examples;
    requires io.jstark.instrument;
    requires io.jstark.profile;
    requires io.jstark.cluster;
    requires info.picocli;
    requires com.fasterxml.jackson.core;
    requires org.knowm.xchart;
    // xchart's PNG encoder draws with java.awt and writes with javax.imageio; its automatic module cannot require them
    requires java.desktop;
    requires java.logging;
    requires java.management;
    // sun.misc.Signal: the daemon ignores SIGINT and SIGHUP from the terminal that started it
    requires jdk.unsupported;
    // jdk.net.ExtendedSocketOptions: the daemon checks the peer's credentials on its Unix socket
    requires jdk.net;

    // picocli reads and sets the commands' annotated fields by reflection
    opens io.jstark.cli to
            info.picocli;
}
