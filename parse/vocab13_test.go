package parse

import (
	"testing"
)

// vocab13 are level words of the vocabulary added for trackers (Linear's
// Urgent, Polaris' danger) and for Polish, Turkish, Indonesian, Korean
// and Hindi reports, in a severity position: one golden case each,
// written for this test.
var vocab13 = []struct {
	name, report string
	want         []string
}{
	{"tracker priorities in a severity column",
		"# Bug triage\n\n| ID | Title | Severity |\n|---|---|---|\n| ENG-1 | Checkout double-charges on retry | Urgent |\n" +
			"| ENG-2 | Avatar upload slow | Low |\n",
		[]string{"P0 ENG-1: Checkout double-charges on retry", "P3 ENG-2: Avatar upload slow"}},
	{"Polish levels in brackets",
		"# Przegląd kodu\n\n- [Krytyczny] Hasła zapisywane jawnym tekstem\n- [Wysoki] Brak limitu prób logowania\n" +
			"- [Niski] Literówka w komunikacie\n",
		[]string{"P0 Hasła zapisywane jawnym tekstem", "P1 Brak limitu prób logowania", "P3 Literówka w komunikacie"}},
	{"Turkish levels in a severity column",
		"# Güvenlik incelemesi\n\n| Bulgu | Severity |\n|---|---|\n| SQL enjeksiyonu arama uç noktasında | Kritik |\n" +
			"| Oturum çerezi Secure bayrağı yok | Yüksek |\n| Sürüm bilgisi başlıkta | Düşük |\n",
		[]string{"P0 SQL enjeksiyonu arama uç noktasında", "P1 Oturum çerezi Secure bayrağı yok", "P3 Sürüm bilgisi başlıkta"}},
	{"Hindi and Indonesian levels in a severity column",
		"# Review\n\n| Title | Severity |\n|---|---|\n| Token stored in local storage | गंभीर |\n" +
			"| Missing CSRF token on the form | Tinggi |\n| Verbose error page | rendah |\n",
		[]string{"P0 Token stored in local storage", "P1 Missing CSRF token on the form", "P3 Verbose error page"}},
	{"Korean critical in a severity field",
		"# 보안 검토\n\n### 관리자 API 인증 없음\n\n- **심각도:** 치명\n\n### 로그에 토큰 노출\n\n- **심각도:** 높음\n",
		[]string{"P0 관리자 API 인증 없음", "P1 로그에 토큰 노출"}},
	{"urgent in running text is no label",
		"# Notes\n\nThis is urgent, the team said, and we will look next week.\n",
		nil},
}

func TestVocab13(t *testing.T) {
	for _, c := range vocab13 {
		t.Run(c.name, func(t *testing.T) { checkLines(t, c.report, c.want, openLines) })
	}
}
