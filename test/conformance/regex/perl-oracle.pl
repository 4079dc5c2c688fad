#!/usr/bin/perl
# The oracle of the regex conformance suite: reads a JSON list of {pattern, subject, global} on stdin and
# writes, for each, what perl answers: the pattern's error, or the first match (index, text, groups) and the
# result of s/pattern/<$1>/g (or s/pattern/<>/g without groups). One process answers every case.
# unicode_strings: strings are Unicode text, as Java's (and JavaScript's) are.
use strict;
use warnings;
no warnings;
use feature 'unicode_strings';
use JSON::PP;

local $/;
my $cases = JSON::PP->new->utf8->decode(<STDIN>);
my @answers;
for my $c (@$cases) {
    my ($pattern, $subject) = ($c->{pattern}, $c->{subject});
    my $re = eval { qr/$pattern/ };
    if (!defined $re) {
        (my $error = $@) =~ s/ at \S+ line \d+.*//s;
        push @answers, { error => $error };
        next;
    }
    my %a;
    my $groups;
    if ($subject =~ $re) {
        $groups = $#+;
        $a{match} = { index => $-[0], text => substr($subject, $-[0], $+[0] - $-[0]),
            groups => [map { defined $-[$_] ? substr($subject, $-[$_], $+[$_] - $-[$_]) : undef } 1 .. $#+] };
    } else {
        $groups = $#+;
        $a{match} = undef;
    }
    $a{groups} = $groups;
    my $s = $subject;
    if ($groups > 0) { $s =~ s/$re/'<' . ($1 \/\/ '') . '>'/ge } else { $s =~ s/$re/<>/g }
    $a{substituted} = $s;
    push @answers, \%a;
}
print JSON::PP->new->utf8->canonical->encode(\@answers);
