"""English dates as the pages always wrote them: ISO days (2025-10-02), the
24-hour clock. Other languages take Django's own formats (Japanese: 2025/10/02)."""

SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
MONTH_DAY_FORMAT = "M j"
