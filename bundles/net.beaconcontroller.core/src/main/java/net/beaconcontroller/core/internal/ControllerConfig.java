package net.beaconcontroller.core.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.AttributeType;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** The core's settings: the {@code controller.*} keys of {@code beacon.properties}. */
@ObjectClassDefinition(name = "OpenFlow controller", description = "The OpenFlow listener, I/O threads and listener pipelines.")
public @interface ControllerConfig {
    @AttributeDefinition(description = "Address the OpenFlow listeners bind to. Changing it at runtime restarts the"
            + " listeners: switches reconnect.")
    String listenAddress() default "0.0.0.0";

    @AttributeDefinition(min = "-1", max = "65535", description = "TCP port switches connect to: 6653, the port IANA"
            + " assigned to OpenFlow and Open vSwitch's default (0: any free port, -1: off). Changing it at runtime"
            + " restarts the listeners: switches reconnect.")
    int listenPort() default 6653;

    @AttributeDefinition(min = "-1", max = "65535", description = "A second TCP port switches connect to: 6633, the"
            + " port OpenFlow used before IANA assigned one, still the default of older switches and tools such as"
            + " cbench (0: any free port, -1: off). Changing it at runtime restarts the listeners: switches reconnect.")
    int legacyListenPort() default 6633;

    @AttributeDefinition(min = "-1", max = "65535", description = "TCP port for switches that connect over TLS (Open"
            + " vSwitch's ssl: targets), -1: off. TLS 1.2 or 1.3 with mutual authentication: the switch's certificate must"
            + " chain to controller.tlsTrustStore, and the controller presents the key and certificate of"
            + " controller.tlsKeyStore. It must differ from the plaintext ports; set those to -1 to accept TLS only"
            + " (0: any free port). Changing it at runtime restarts the listeners: switches reconnect.")
    int tlsListenPort() default -1;

    @AttributeDefinition(description = "With controller.tlsListenPort on: the PKCS12 (or JKS) file holding the"
            + " controller's private key and certificate (chain), e.g. made from ovs-pki's ctl-privkey.pem and"
            + " ctl-cert.pem with openssl pkcs12 -export. A relative path is taken from the directory Beacon starts"
            + " in. Read when the listeners (re)start.")
    String tlsKeyStore() default "";

    @AttributeDefinition(type = AttributeType.PASSWORD, description = "The password of controller.tlsKeyStore and of"
            + " the private key in it.")
    String tlsKeyStorePassword() default "";

    @AttributeDefinition(description = "With controller.tlsListenPort on: the CA certificates a switch's certificate"
            + " must chain to, as a PEM file (such as ovs-pki's switchca/cacert.pem) or a PKCS12/JKS key store. Read"
            + " when the listeners (re)start.")
    String tlsTrustStore() default "";

    @AttributeDefinition(type = AttributeType.PASSWORD, description = "The password of controller.tlsTrustStore when"
            + " it is a key store; a PEM file needs none.")
    String tlsTrustStorePassword() default "";

    @AttributeDefinition(description = "With controller.tlsListenPort on: a file binding each switch certificate to"
            + " the DPIDs it may claim (empty: any certificate the CA signed may claim any DPID). One line per"
            + " certificate: its DPIDs, comma-separated, then its subject's common name as Beacon logs it when the"
            + " switch connects (e.g. '00:00:00:00:00:00:00:01 sc id:1b6f...'); # starts a comment. A connection whose"
            + " certificate is not listed, or lists other DPIDs, is refused with a line naming both. Read when the"
            + " listeners (re)start.")
    String tlsSwitchIdentities() default "";

    @AttributeDefinition(min = "1", max = "256", description = "I/O threads; each switch is pinned to the least-loaded"
            + " one and all its messages run there. Changing it at runtime restarts the listener: switches reconnect.")
    int threadCount() default 1;

    @AttributeDefinition(description = "Write every message to the socket at once (lowest latency) instead of batching"
            + " writes per loop. Applies to switches that connect afterwards.")
    boolean immediate() default false;

    @AttributeDefinition(min = "0", max = "10000", description = "Microseconds an I/O thread keeps polling its sockets"
            + " after the last message before it blocks: lower latency (no wake-up per message) for up to that much"
            + " busy CPU after each burst; 0 blocks at once. Applies when the listener (re)starts.")
    int idleSpinMicros() default 50;

    @AttributeDefinition(description = "Set TCP_NODELAY on switch connections. Applies to switches that connect"
            + " afterwards.")
    boolean noDelay() default true;

    @AttributeDefinition(description = "What happens to the flows a switch already has when it connects to this"
            + " controller as its master (or only controller). RECONCILE: read its flow table and delete only"
            + " Beacon's flows their owner knows to be stale, keep the rest, write missing static flows; the switch"
            + " forwards with its flows throughout. DELETE: delete every flow (and wait for a barrier) before the"
            + " switch becomes active, as Beacon 1.0 did. KEEP: touch nothing.")
    PreExistingFlows preExistingFlows() default PreExistingFlows.RECONCILE;

    @AttributeDefinition(description = "Flows without a Beacon cookie found by reconciliation (another tool's):"
            + " KEEP them (counted), REPORT them (kept, counted, and the first ones logged), or DELETE them.")
    ForeignFlows foreignFlows() default ForeignFlows.REPORT;

    @AttributeDefinition(min = "1", max = "3600", description = "Seconds a switch may stay silent while it sends its"
            + " flow table for reconciliation (before the first part of the reply and between parts) before"
            + " controller.reconcileFallback applies.")
    int reconcileTimeout() default 10;

    @AttributeDefinition(description = "What a switch gets whose flow table reconciliation cannot read (no answer"
            + " in time, or more than controller.reconcileMaxFlows flows): KEEP its flows, or DELETE them all.")
    Fallback reconcileFallback() default Fallback.KEEP;

    @AttributeDefinition(min = "1", max = "1024", description = "Switches whose flow tables reconciliation reads and"
            + " judges at once; the others wait their turn, so that a storm of reconnecting switches holds at most"
            + " this many tables in memory.")
    int reconcileInFlight() default 4;

    @AttributeDefinition(min = "1", max = "10000000", description = "Flows a switch's table may hold for"
            + " reconciliation to read it; a larger table gets controller.reconcileFallback, with a warning.")
    int reconcileMaxFlows() default 100000;

    @AttributeDefinition(description = "controller.callbackOrdering[TYPE] = names: listener names in the order they"
            + " see messages of TYPE (an OpenFlow message type such as PACKET_IN), before the listeners' own"
            + " before/after constraints; listeners not named follow.")
    String[] callbackOrdering() default {};

    @AttributeDefinition(min = "1", max = "3600", description = "Seconds without a message from a switch before an"
            + " ECHO_REQUEST is sent.")
    int echoInterval() default 5;

    @AttributeDefinition(min = "2", max = "3600", description = "Seconds without a message (or an unfinished handshake)"
            + " before a switch is disconnected; greater than controller.echoInterval.")
    int echoTimeout() default 10;

    @AttributeDefinition(min = "65536", max = "1073741824", description = "Bytes queued for one switch before it is"
            + " disconnected as not reading.")
    int outputBufferLimit() default 4 << 20;

    enum PreExistingFlows { RECONCILE, DELETE, KEEP }

    enum ForeignFlows { KEEP, REPORT, DELETE }

    enum Fallback { KEEP, DELETE }
}
