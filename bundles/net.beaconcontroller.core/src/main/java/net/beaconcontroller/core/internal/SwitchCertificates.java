package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.security.auth.x500.X500Principal;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.util.Dpids;

/**
 * Which DPIDs each switch certificate may claim (controller.tlsSwitchIdentities). A CA that signs every switch's
 * certificate lets any of them name any DPID; this file binds each certificate, by its subject's common name, to the
 * switches it is for. One line per certificate: its DPIDs (comma-separated, no spaces) then, after white space, its
 * common name exactly as the certificate has it ({@code ovs-pki} makes names like {@code sc id:<uuid>}; Beacon logs
 * each switch certificate's subject as the switch connects). Blank lines and lines starting with {@code #} are skipped.
 * Immutable.
 */
record SwitchCertificates(Map<String, Set<Long>> dpidsByName) {
    static final String KEY = "controller.tlsSwitchIdentities";

    SwitchCertificates {
        dpidsByName = Map.copyOf(dpidsByName);
    }

    /** The file the setting names; {@link SettingException} names the key, and the line of what is wrong. */
    static SwitchCertificates read(String setting) {
        var path = Path.of(setting);
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SettingException(KEY, setting, "cannot read it: " + e);
        }
        return parse(setting, text);
    }

    static SwitchCertificates parse(String setting, String text) {
        var byName = new HashMap<String, Set<Long>>();
        var lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            var line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            var parts = line.split("\\s+", 2);
            if (parts.length < 2) {
                throw new SettingException(KEY, setting, "line " + (i + 1) + ": expected the certificate's DPIDs, then"
                        + " its common name, found '" + line + "'");
            }
            var dpids = new LinkedHashSet<Long>();
            for (var dpid : parts[0].split(",")) {
                try {
                    dpids.add(Dpids.parse(dpid));
                } catch (IllegalArgumentException e) {
                    throw new SettingException(KEY, setting, "line " + (i + 1) + ": " + e.getMessage());
                }
            }
            if (byName.putIfAbsent(parts[1], Set.copyOf(dpids)) != null) {
                throw new SettingException(KEY, setting, "line " + (i + 1) + ": the common name '" + parts[1]
                        + "' is listed twice");
            }
        }
        return new SwitchCertificates(byName);
    }

    /** Why a switch presenting {@code subject} may not claim {@code dpid}; empty when it may. */
    Optional<String> refusal(X500Principal subject, long dpid) {
        var name = commonName(subject);
        if (name.isEmpty()) {
            return Optional.of("its certificate '" + subject.getName() + "' has no common name, so " + KEY
                    + " cannot list it");
        }
        var allowed = dpidsByName.get(name.get());
        if (allowed == null) {
            return Optional.of("its certificate '" + subject.getName() + "' is not listed in " + KEY);
        }
        if (!allowed.contains(dpid)) {
            return Optional.of("its certificate '" + subject.getName() + "' may claim only "
                    + allowed.stream().sorted().map(Dpids::toString).collect(Collectors.joining(", ")) + " (" + KEY
                    + ")");
        }
        return Optional.empty();
    }

    private static Optional<String> commonName(X500Principal subject) {
        try {
            // Several CNs: the most specific, written first in the name, which LdapName lists last.
            return new LdapName(subject.getName(X500Principal.RFC2253)).getRdns().stream()
                    .filter(r -> r.getType().equalsIgnoreCase("CN"))
                    .map(r -> String.valueOf(r.getValue())).reduce((first, second) -> second);
        } catch (InvalidNameException e) {
            return Optional.empty(); // the JDK wrote the name itself: cannot happen; treated as no name
        }
    }
}
