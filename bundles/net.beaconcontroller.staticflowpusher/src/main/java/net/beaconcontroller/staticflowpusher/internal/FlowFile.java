package net.beaconcontroller.staticflowpusher.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.action.OFActions;
import net.beaconcontroller.staticflowpusher.StaticFlow;
import net.beaconcontroller.util.StateFiles;

/**
 * The static flows on disk: one line per flow, tab-separated, match and actions in ovs-ofctl syntax (readable, and
 * {@code OFMatch}/{@code OFActions} read back exactly what they print). Written whole to a temporary file that then
 * replaces the old one, so a crash leaves either the old flows or the new ones.
 */
final class FlowFile {
    private static final Logger log = LoggerFactory.getLogger(FlowFile.class);
    private static final String HEADER = "# Beacon static flows (written by Beacon; one per line): name, dpid,"
            + " priority, cookie, idle timeout, hard timeout, active, match, actions";

    private final Path path;

    FlowFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** @throws IOException naming the line that does not parse */
    List<StaticFlow> read() throws IOException {
        var flows = new ArrayList<StaticFlow>();
        StateFiles.readLines(path, (line, n) -> {
            var f = fields(line);
            flows.add(parse(f, fromEarlierVersion(f, n)));
        });
        return flows;
    }

    /**
     * The cookie as this version reads it. Versions before flows named their owner in the cookie kept any 64-bit
     * cookie a user gave; this one keeps 48 bits of it (the upper 16 name the owner, see {@code FlowOwner}). Such a
     * flow keeps its low 48 bits, said once here, rather than stop the pusher at the first start after an upgrade; the
     * file is written in this version's form at the next change.
     */
    private long fromEarlierVersion(String[] f, int n) {
        long cookie = Long.parseUnsignedLong(f[3], 16);
        if (StaticFlow.takesCookie(cookie)) {
            return cookie;
        }
        long kept = cookie & FlowOwner.DATA_MASK;
        log.warn("{} line {}: static flow '{}' has the cookie 0x{} of an earlier version; it keeps its low 48 bits,"
                + " 0x{} (the upper 16 now name the flow's owner)", path, n, f[0], f[3], Long.toHexString(kept));
        return kept;
    }

    /** A flow from its line (without the line end); what a cluster shares of it too. */
    static StaticFlow parse(String line) {
        var f = fields(line);
        return parse(f, Long.parseUnsignedLong(f[3], 16));
    }

    private static String[] fields(String line) {
        var f = line.split("\t", -1);
        if (f.length != 9) {
            throw new IllegalArgumentException("expected 9 tab-separated fields, found " + f.length);
        }
        return f;
    }

    private static StaticFlow parse(String[] f, long cookie) {
        return new StaticFlow(f[0], Long.parseUnsignedLong(f[1], 16), OFMatch.parse(f[7]), OFActions.parse(f[8]),
                Integer.parseInt(f[2]), cookie, Integer.parseInt(f[4]), Integer.parseInt(f[5]),
                Boolean.parseBoolean(f[6]));
    }

    static String line(StaticFlow f) {
        return f.name() + '\t' + Long.toHexString(f.dpid()) + '\t' + f.priority() + '\t'
                + Long.toHexString(f.cookie()) + '\t' + f.idleTimeout() + '\t' + f.hardTimeout() + '\t' + f.active()
                + '\t' + f.match() + '\t' + OFActions.toString(f.actions());
    }

    void write(Collection<StaticFlow> flows) throws IOException {
        var sb = new StringBuilder(HEADER).append('\n');
        for (var f : flows) {
            sb.append(line(f)).append('\n');
        }
        StateFiles.writeAtomically(path, sb);
    }
}
