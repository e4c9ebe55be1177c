package net.beaconcontroller.core;

import java.util.List;
import java.util.Optional;

/**
 * The application that owns a flow, named in the flow's cookie so that Beacon can tell its own flows (and whose they
 * are) from anybody else's when it reads a switch's flow table back, e.g. after a restart.
 *
 * <p>Layout of a Beacon cookie: the top byte is {@code 0xbe} (Beacon's signature), the next byte the owner's id, the
 * lower 48 bits belong to the owner (routing leaves them 0, the static flow pusher keeps the user's cookie there, the
 * cluster its migration id). A cookie with another top byte, 0 among them, is <em>foreign</em>: a flow some other tool
 * (or an older Beacon) installed. Ids are fixed here, not handed out at runtime, because a cookie must mean the same
 * owner after a restart; applications outside this project take ids from {@link #FIRST_EXTERNAL_ID} up, except
 * {@code 0xac}, the cluster's, which no application can take.
 *
 * @param id   1..255
 * @param name the owner's name as shown in logs and REST views
 */
public record FlowOwner(int id, String name) {
    /** Cookie bits that hold the owner's own data. */
    public static final long DATA_MASK = 0x0000_ffff_ffff_ffffL;
    private static final long SIGNATURE = 0xbeL;
    /**
     * The first id applications outside this project may use; ids below it are this project's, and so is
     * {@code 0xac} ({@link #CLUSTER}) above it.
     */
    public static final int FIRST_EXTERNAL_ID = 0x80;
    /** Kept by the cluster's markers from before flow owners existed, hence inside the range of outside ids. */
    private static final int CLUSTER_ID = 0xac;
    private static final String CLUSTER_NAME = "cluster";

    public static final FlowOwner ROUTING = new FlowOwner(0x01, "routing");
    public static final FlowOwner LEARNING_SWITCH = new FlowOwner(0x02, "learningswitch");
    public static final FlowOwner STATIC_FLOWS = new FlowOwner(0x03, "staticflowpusher");
    /** The firewall's drop flows, as narrow as the packet they refused. */
    public static final FlowOwner FIREWALL = new FlowOwner(0x04, "firewall");
    /**
     * The PACKET_IN guard's short-lived flows on a port over its budget (a drop, and LLDP to the controller), which
     * end by their hard timeout.
     */
    public static final FlowOwner GUARD = new FlowOwner(0x05, "guard");
    /**
     * The rules Maple's runtime compiles from an algorithmic policy; the lower bits name the runtime's activation
     * (its epoch), so a restarted runtime tells the flows it wrote from those an earlier one left.
     */
    public static final FlowOwner MAPLE = new FlowOwner(0x06, "maple");
    /** The cluster's migration marker flows ({@code 0xbeac...}, the id chosen to keep the markers' existing cookies). */
    public static final FlowOwner CLUSTER = new FlowOwner(CLUSTER_ID, CLUSTER_NAME);

    private static final List<FlowOwner> KNOWN = List.of(ROUTING, LEARNING_SWITCH, STATIC_FLOWS, FIREWALL, GUARD,
            MAPLE, CLUSTER);

    public FlowOwner {
        if (id < 1 || id > 0xff) {
            throw new IllegalArgumentException("a flow owner's id is 1..255, not " + id);
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a flow owner needs a name");
        }
        // The core judges no flow of this id (a reconciler for it is refused): the cluster's markers live for one
        // migration and must never be deleted, as another owner's judging could.
        if (id == CLUSTER_ID && !name.equals(CLUSTER_NAME)) {
            throw new IllegalArgumentException("flow owner id 0xac is reserved for the cluster's marker flows; "
                    + name + " needs another id from 0x80 up");
        }
    }

    /** This owner's cookie with {@code data} (48 bits) in its lower bits. */
    public long cookie(long data) {
        if ((data & ~DATA_MASK) != 0) {
            throw new IllegalArgumentException("a flow cookie's owner data has 48 bits, not 0x" + Long.toHexString(data));
        }
        return SIGNATURE << 56 | (long) id << 48 | data;
    }

    /** This owner's cookie with no data of its own. */
    public long cookie() {
        return cookie(0);
    }

    /** Whether {@code cookie} names this owner. */
    public boolean owns(long cookie) {
        return ownerId(cookie) == id;
    }

    /** The owner id in a Beacon cookie; -1 for a foreign one. */
    public static int ownerId(long cookie) {
        return cookie >>> 56 == SIGNATURE && (cookie >>> 48 & 0xff) != 0 ? (int) (cookie >>> 48 & 0xff) : -1;
    }

    /** The owner's data in {@code cookie}. */
    public static long data(long cookie) {
        return cookie & DATA_MASK;
    }

    /** This project's owner with that id, if it is one. */
    public static Optional<FlowOwner> known(int id) {
        return KNOWN.stream().filter(o -> o.id == id).findFirst();
    }

    /**
     * How a cookie reads in logs and REST views: the known owner's name, {@code owner-0x81} for another Beacon owner
     * id, {@code foreign} for the rest.
     */
    public static String describe(long cookie) {
        int id = ownerId(cookie);
        if (id < 0) {
            return "foreign";
        }
        return known(id).map(FlowOwner::name).orElse("owner-0x" + Integer.toHexString(id));
    }
}
