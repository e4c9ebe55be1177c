package net.beaconcontroller.config.internal;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean …?" for an unknown key: known keys equal but for case, or at most two edits away. */
final class Suggestions {
    private Suggestions() {
    }

    /** @return {@code " (did you mean a or b?)"}, or "" when nothing is close */
    static String forKey(String key, Collection<String> known) {
        String base = SettingKey.parse(key).map(SettingKey::declared).orElse(key).toLowerCase(Locale.ROOT);
        var close = known.stream().sorted()
                .filter(k -> distance(k.toLowerCase(Locale.ROOT), base) <= 2)
                .toList();
        return close.isEmpty() ? "" : " (did you mean " + String.join(" or ", close) + "?)";
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
