package net.beaconcontroller.staticflowpusher;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActions;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;

/**
 * A flow an operator wants on a switch whatever the applications do: kept across restarts and written again
 * whenever its switch connects.
 *
 * @param name        unique among all static flows; adding a flow with a name in use replaces that flow; not starting
 *                    with {@code #}, which the file it is kept in reads as a comment
 * @param dpid        the switch
 * @param match       what packets it applies to
 * @param actions     what it does with them; empty drops them
 * @param priority    0..65535
 * @param cookie      the user's part of the flow's cookie (48 bits): on the switch the cookie is
 *                    {@link FlowOwner#STATIC_FLOWS}' with this in its lower bits ({@link #switchCookie()})
 * @param idleTimeout seconds, 0..65535, 0 for none
 * @param hardTimeout seconds, 0..65535, 0 for none
 * @param active      whether it is on the switch; an inactive flow is only kept
 */
public record StaticFlow(String name, long dpid, OFMatch match, List<OFAction> actions, int priority, long cookie,
        int idleTimeout, int hardTimeout, boolean active) {
    /** What versions before flow owners wrote as the default cookie ("stat"). */
    private static final long LEGACY_DEFAULT_COOKIE = 0x7374_6174_0000_0000L;

    public StaticFlow {
        Objects.requireNonNull(name, "name");
        // Unicode text as a whole (no half of a surrogate pair): the flow file is UTF-8.
        if (name.isBlank() || name.chars().anyMatch(Character::isISOControl)
                || !StandardCharsets.UTF_8.newEncoder().canEncode(name)) {
            throw new IllegalArgumentException("a static flow's name is non-blank Unicode text without control"
                    + " characters");
        }
        if (name.startsWith("#")) {
            throw new IllegalArgumentException("a static flow's name must not start with '#' (" + name + ")");
        }
        Objects.requireNonNull(match, "match");
        actions = List.copyOf(actions);
        // Refused here, not when a switch connects: a FLOW_MOD that cannot be encoded would reach no switch.
        int length = OFFlowMod.MIN_LENGTH + OFActions.totalLength(actions);
        if (length > 0xffff) {
            throw new IllegalArgumentException("the flow's " + actions.size() + " actions make a FLOW_MOD of "
                    + length + " bytes, over OpenFlow 1.0's limit of 65535 bytes a message");
        }
        cookie = userCookie(cookie);
        check(priority, "priority");
        check(idleTimeout, "idle timeout");
        check(hardTimeout, "hard timeout");
    }

    /**
     * Whether a static flow takes {@code cookie}: the user's 48 bits, a whole static-flow cookie as a switch shows it,
     * or the "stat" cookie earlier versions wrote by default.
     */
    public static boolean takesCookie(long cookie) {
        return (cookie & ~FlowOwner.DATA_MASK) == 0 || FlowOwner.STATIC_FLOWS.owns(cookie)
                || cookie == LEGACY_DEFAULT_COOKIE;
    }

    /**
     * The 48 bits a user may choose. A whole static-flow cookie as a switch shows it is taken apart again, and the
     * "stat" cookie earlier versions wrote by default reads as 0.
     */
    private static long userCookie(long cookie) {
        if (!takesCookie(cookie)) {
            throw new IllegalArgumentException("a static flow's cookie has 48 bits (the upper 16 name the flow's"
                    + " owner), not 0x" + Long.toHexString(cookie));
        }
        if (cookie == LEGACY_DEFAULT_COOKIE) {
            return 0;
        }
        return FlowOwner.STATIC_FLOWS.owns(cookie) ? FlowOwner.data(cookie) : cookie;
    }

    private static void check(int value, String what) {
        if (value < 0 || value > 0xffff) {
            throw new IllegalArgumentException(what + " must be 0..65535, not " + value);
        }
    }

    /**
     * The FLOW_MOD that puts it on its switch. The switch tells when the flow goes (FLOW_REMOVED), so that the pusher
     * can write it again when something else deleted it.
     */
    public OFFlowMod add() {
        return OFFlowMod.builder().match(match).cookie(switchCookie()).priority(priority).idleTimeout(idleTimeout)
                .hardTimeout(hardTimeout).flags(OFFlowMod.FLAG_SEND_FLOW_REM).actions(actions).build();
    }

    /** The cookie it has on the switch: owner {@link FlowOwner#STATIC_FLOWS}, the user's cookie in the low bits. */
    public long switchCookie() {
        return FlowOwner.STATIC_FLOWS.cookie(cookie);
    }

    /** Whether {@code flow}, found on its switch, is exactly this flow as it would write it. */
    public boolean isOnSwitchAs(OFFlowStatsEntry flow) {
        return flow.cookie() == switchCookie() && flow.priority() == priority
                && flow.match().equals(match.normalized())
                && flow.actions().equals(actions) && flow.idleTimeout() == idleTimeout
                && flow.hardTimeout() == hardTimeout;
    }

    /** The FLOW_MOD that takes exactly it off its switch. */
    public OFFlowMod delete() {
        return OFFlowMod.builder().command(OFFlowMod.Command.DELETE_STRICT).match(match).priority(priority)
                .outPort(OFPort.NONE).build();
    }
}
