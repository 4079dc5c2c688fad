#!/usr/bin/perl
# Derives test/conformance/regex/re-tests-corpus.json from perl's t/re/re_tests (Perl 5 source,
# https://github.com/Perl/perl5, Artistic License or GPL): the pattern and the subject string of each line,
# read as t/re/regexp.t reads them. Only the inputs are kept; the answers come from perl at test time.
#
#   perl test/conformance/regex/generate-corpus.pl path/to/re_tests > test/conformance/regex/re-tests-corpus.json
#
# Skipped: lines whose modifiers xroute cannot express (anything but i, m, s, x), subjects or patterns with a
# character beyond U+FFFF (string indexes would differ between perl and JavaScript), repeated pairs, and one
# the few patterns that make this perl itself panic (perl 5.36: `[^\W\S]{6}` and four more of that shape, fixed later).
use strict;
use warnings;
use JSON::PP;

our ($bang, $ffff, $nulnul) = (sprintf("\\%03o", ord "!"), chr(0xff) x 2, "\0" x 2);
my $file = shift or die "usage: $0 re_tests\n";
open my $in, '<', $file or die "$file: $!\n";
my (@cases, %seen);
my $line = 0;
while (<$in>) {
    $line++;
    last if /^__END__$/;
}
while (my $text = <$in>) {
    $line++;
    next if $text !~ /\S/ || $text =~ /^\s*#/;
    chomp $text;
    $text =~ s/\\n/\n/g;
    my ($pat, $subject, $result) = split /\t/, $text, 4;
    next unless defined $result;
    next if $result =~ /[Be]/;    # known perl bugs, EBCDIC-only lines
    my ($body, $flags);
    if ($pat =~ m{^(['/:])(.*)\1([a-z]*)\z}s) { ($body, $flags) = ($2, $3) }
    else { ($body, $flags) = ($pat, '') }
    next if $flags =~ /[^imsx]/ || $flags =~ /xx/;
    $body =~ s/(\$\{\w+\})/$1/eeg;
    $subject = eval qq("$subject");
    next if $@ || !defined $subject;
    my $pattern = ($flags eq '' ? '' : "(?$flags)") . $body;
    next if "$pattern$subject" =~ /[^\x{0}-\x{FFFF}]/;
    next if $seen{"$pattern\0$subject"}++;
    next unless perl_survives($pattern, $subject);
    push @cases, { line => $line, pattern => $pattern, subject => $subject };
}
# Runs the match and the substitution in a child: false when perl dies there (a panic in the regex engine).
sub perl_survives {
    my ($pattern, $subject) = @_;
    my $pid = fork // die "fork: $!\n";
    if ($pid == 0) {
        no warnings;
        my $re = eval { qr/$pattern/ } or exit 0;
        my $s = $subject;
        $s =~ $re;
        $s =~ s/$re/<>/g;
        exit 0;
    }
    waitpid $pid, 0;
    return $? == 0;
}

print JSON::PP->new->utf8->canonical->pretty->encode({
    source => 'perl5 t/re/re_tests (https://github.com/Perl/perl5, commit 9a9d70c38f6051857c395092b58e79353ce9f3be), Artistic License or GNU GPL; see test/conformance/regex/README.md',
    cases => \@cases,
});
