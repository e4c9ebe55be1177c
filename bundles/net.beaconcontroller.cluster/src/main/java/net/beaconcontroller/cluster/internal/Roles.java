package net.beaconcontroller.cluster.internal;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.openflow.vendor.NiciraRole;
import net.beaconcontroller.util.Dpids;

/**
 * The roles of the switches connected to this member: each follows the masters map, checked against the role the
 * switch last granted until they agree, with one role request in flight per switch; and the switches of a member that
 * died, which this member takes over before the map can say so. Confined to the coordinator thread, which decides
 * whether this member may assert MASTER at all (a majority, no merge under way).
 */
final class Roles {
    private static final Logger log = LoggerFactory.getLogger(Roles.class);
    /** A role request not answered in this time is asked again on a later round. */
    private static final Duration ROLE_TIMEOUT = Duration.ofSeconds(2);

    private final Membership member;
    private final Switches switches;
    private final MasterView masterView;
    private final Migrations migrations;
    private final Coordinator coordinator;
    /** Membership changed: MASTER roles are asserted again on the next round (see followMasters). */
    private boolean reassert;

    Roles(Membership member, Switches switches, MasterView masterView, Migrations migrations,
            Coordinator coordinator) {
        this.member = member;
        this.switches = switches;
        this.masterView = masterView;
        this.migrations = migrations;
        this.coordinator = coordinator;
    }

    /** Membership changed: a switch may have demoted this member without telling it. */
    void reassertNextRound() {
        reassert = true;
    }

    /**
     * Every round and at once after membership changes: the roles of the switches connected here follow the map,
     * checked against the role each switch last granted, until they agree. After membership changed, or when another
     * member reports MASTER for a switch the map gives this member, MASTER is asserted again even where this member
     * believes it holds it: a switch demotes a master without telling it. For a switch whose master an event changed
     * after the view was read (the map's listener, a take-over), the cache is newer.
     *
     * @param majority whether this member may assert MASTER: a member cut off from the majority must not take switches
     *                 back from masters on the other side
     */
    void followMasters(Store.View view, boolean majority) {
        boolean force = reassert && majority;
        reassert = false;
        for (var st : switches.all()) {
            long dpid = st.sw.getId();
            var read = view.masters().get(dpid);
            if (read == null) {
                continue;
            }
            var m = masterView.reconcile(dpid, read, view.readAt());
            if (m != null) {
                follow(st, m, majority, force || view.contested().contains(dpid));
            }
        }
    }

    /**
     * With a majority: the switches of a member that died which the oldest member's next decision gives to this one
     * ({@link Mastership#successors}: the same rule, from the masters map every member caches alike), asserted at once,
     * and the other members told (so that their writes for the switch come here meanwhile). The oldest member's own
     * decision waits until Hazelcast has re-homed the dead member's partitions, which took over 5 s in a CI run when
     * the oldest member itself died. Should the oldest decide otherwise (a member was not connected to the switch),
     * this member follows the map back to SLAVE as for any change of master.
     */
    void takeOver(String dead, String address) {
        var live = member.joined().members().live();
        var self = member.self();
        Mastership.successors(dead, live, masterView.snapshot()).forEach((dpid, successor) -> {
            var st = switches.get(dpid);
            if (self.equals(successor) && st != null && !migrations.migrating(dpid)) {
                log.info("cluster: switch {} taken over from {}, which left: asserting MASTER", st.sw.getStringId(),
                        address);
                // Recorded here as well: should another survivor's notice of the same take-over arrive, this member
                // knows it holds the switch itself (see contended).
                masterView.takenOver(dpid, self, dead);
                follow(st, self, true, true);
                var told = new Message.TakenOver(dpid, self, dead);
                live.stream().filter(m -> !m.equals(self)).forEach(m -> member.send(m, told));
            }
        });
    }

    /**
     * Another survivor says it took over a switch of {@code dead}. Normally this member learns the new master. Should
     * both have taken it over (their caches of the map differed when they saw the death), each would follow the other
     * to SLAVE and leave the switch without a master: the older of the two keeps it, asserting MASTER again (the
     * other's request may have reached the switch last), and the younger steps down to it. The oldest member's
     * decision agrees: it gives a switch to the oldest member holding MASTER.
     */
    void takenOverBy(long dpid, String by, String dead, boolean majority) {
        var self = member.self();
        var st = switches.get(dpid);
        if (by.equals(self) || !self.equals(masterView.get(dpid))) {
            masterView.takenOver(dpid, by, dead);
            if (st != null && by.equals(masterView.get(dpid))) {
                follow(st, by, majority, false);
            }
            return;
        }
        var live = member.joined().members().live();
        int theirs = live.indexOf(by);
        boolean yield = theirs >= 0 && theirs < live.indexOf(self);
        log.warn("cluster: switch {} was taken over by {} as well as by this member: {}", Dpids.toString(dpid),
                member.describe(by), yield ? "the older member keeps it" : "this member, the older, keeps it");
        if (yield) {
            masterView.changed(dpid, by);
        }
        if (st != null) {
            follow(st, yield ? by : self, majority, true);
        }
    }

    /**
     * One switch's role follows {@code master}; at most one role request in flight each.
     *
     * @param majority whether this member may assert MASTER
     * @param force    MASTER asserted again even where the switch last granted it
     */
    void follow(SwitchState st, String master, boolean majority, boolean force) {
        long dpid = st.sw.getId();
        if (migrations.migrating(dpid) || !st.active || !st.sw.isConnected() || st.rolesUnsupported) {
            return; // a migration sets the roles itself; a handshake under way its own (see Coordinator#added)
        }
        if (!member.isMember(master)) {
            return; // the oldest member has yet to name a new master: a member that took the switch over keeps it
        }
        var want = member.self().equals(master) ? NiciraRole.MASTER : NiciraRole.SLAVE;
        if (want == NiciraRole.MASTER && !majority || st.asking == want
                || st.sw.getRole() == want && !(force && want == NiciraRole.MASTER)) {
            return;
        }
        // Stepping down: the switch demoted the new master, silently, if this member's MASTER request reached it last.
        boolean steppingDown = want == NiciraRole.SLAVE && st.sw.getRole() == NiciraRole.MASTER;
        if (steppingDown) {
            log.info("cluster: switch {}: stepping down to SLAVE for {}", st.sw.getStringId(), member.describe(master));
        }
        st.asking = want;
        st.sw.setRole(want, ROLE_TIMEOUT).whenComplete((r, e) -> coordinator.later(() -> {
            if (st.asking == want) {
                st.asking = null;
            }
            if (e instanceof UnsupportedOperationException
                    || e != null && e.getCause() instanceof UnsupportedOperationException) {
                st.rolesUnsupported = true; // the core has said so once; the switch stays with this member
            } else if (e != null) {
                log.warn("cluster: switch {} did not grant role {} (asked again within {} ms): {}",
                        st.sw.getStringId(), want, Coordinator.TICK_MILLIS, e.getMessage());
            } else if (r != want) {
                log.warn("cluster: switch {} granted {} when asked for {}", st.sw.getStringId(), r, want);
            } else {
                member.joined().store().publishSoon();
                if (steppingDown) {
                    member.send(master, new Message.Reassert(dpid, member.self()));
                }
            }
        }));
    }
}
