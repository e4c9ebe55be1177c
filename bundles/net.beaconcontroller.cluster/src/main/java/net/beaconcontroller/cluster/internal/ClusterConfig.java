package net.beaconcontroller.cluster.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(name = "Beacon cluster")
public @interface ClusterConfig {
    @AttributeDefinition(description = "Run as one member of a cluster of Beacon instances (Hazelcast): every switch"
            + " connects to all of them and exactly one masters it. Off: this instance is its switches' only"
            + " controller. Applies when the bundle starts.")
    boolean enabled() default false;

    @AttributeDefinition(description = "Cluster name: only instances with the same name form a cluster.")
    String name() default "beacon";

    @AttributeDefinition(description = "Other members to join, host or host:port (TCP-IP join, no multicast); an"
            + " instance that reaches none of them runs alone and says so.")
    String[] members() default {"127.0.0.1"};

    @AttributeDefinition(description = "Address the cluster member binds to and announces.")
    String bindAddress() default "127.0.0.1";

    @AttributeDefinition(description = "TCP port of the cluster member.", min = "1", max = "65535")
    int port() default 5701;

    @AttributeDefinition(description = "Seconds without a heartbeat after which a member is declared dead and its"
            + " switches get new masters.", min = "2", max = "300")
    int failureTimeout() default 5;

    @AttributeDefinition(description = "Milliseconds a switch migration may take before it is given up (the switch"
            + " stays with its master).", min = "100", max = "60000")
    int migrationTimeout() default 5000;

    @AttributeDefinition(description = "Seconds between balancing rounds, which spread switches by load and count and"
            + " then give neighbouring switches one master where that keeps the balance; 0 turns automatic migration"
            + " off.", min = "0", max = "3600")
    int balancePeriod() default 5;

    @AttributeDefinition(description = "PACKET_INs per second above which a member is overloaded and gives switches"
            + " to a member below cluster.lowWater.", min = "1")
    int highWater() default 50000;

    @AttributeDefinition(description = "PACKET_INs per second below which a member takes switches from an"
            + " overloaded one.", min = "0")
    int lowWater() default 20000;
}
