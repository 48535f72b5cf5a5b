"""Seeded generator of complaint-like texts (~1,500 characters) for benchmarks.

Texts mix the formats guisekit must handle (US and Indian money, numeric and written
dates, redactions, percentages, years, account endings, phone numbers) in plausible
sentences. Same seed, same texts.
"""

from __future__ import annotations

import random

_OPENERS = [
    "I am writing about my {product} with XXXX.",
    "On {date} I noticed a problem with my {product}.",
    "I have had my {product} with XXXX XXXX since {year}.",
]
_SENTENCES = [
    "On {date} I was charged {money} for a purchase I did not make.",
    "The bank told me the fee of {money} would be refunded within {n} business days.",
    "I called customer service at (555) 201-{phone} and spoke to a representative named XXXX.",
    "My account ending in {acct} still shows a balance of {money}.",
    "They raised my interest rate to {pct} without any notice in {year}.",
    "I sent a letter on XX/XX/{year} asking them to correct the error.",
    "The representative said I would receive a credit of {money} by {date}.",
    "Last Tuesday I checked again and the charge of {money} was still there.",
    "I have paid every bill on time since {year} and never missed a payment.",
    "The late fee was {money}, which is more than {pct} of the payment itself.",
    "I disputed the transaction on {date} and they closed the dispute on XX/XX/XXXX.",
    "My salary is {inr} and the EMI of {inr_month} takes a large share of it.",
    "I was offered {lpa} but the bank still refused to restructure the loan.",
    "I have been a customer for {n} years and I expected better service than this.",
    "They told me to wait {n} weeks, and then another {n} weeks after that.",
    "I am asking for a refund of {money} and a correction on my credit report.",
]
_PRODUCTS = ["credit card", "checking account", "mortgage", "auto loan", "student loan"]
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def _money(rng: random.Random) -> str:
    cents = rng.randint(100, 2_000_000)
    whole, frac = divmod(cents, 100)
    return rng.choice(
        [
            f"${whole:,}.{frac:02d}",
            f"${whole}",
            f"{whole:,} dollars",
            f"{{${whole}.{frac:02d}}}",
            f"USD {whole:,}",
            f"${whole / 1000:.1f}k",
        ]
    )


def _date(rng: random.Random) -> str:
    y, m, d = rng.randint(2015, 2024), rng.randint(1, 12), rng.randint(1, 28)
    return rng.choice(
        [
            f"{m:02d}/{d:02d}/{y}",
            f"{m}/{d}/{y % 100:02d}",
            f"{_MONTHS[m - 1]} {d}, {y}",
            f"{d} {_MONTHS[m - 1]} {y}",
            f"{y}-{m:02d}-{d:02d}",
            f"XX/XX/{y}",
        ]
    )


def _fill(template: str, rng: random.Random) -> str:
    return template.format(
        product=rng.choice(_PRODUCTS),
        date=_date(rng),
        year=rng.randint(2010, 2024),
        money=_money(rng),
        n=rng.randint(2, 30),
        phone=f"{rng.randint(1000, 9999)}",
        acct=f"{rng.randint(1000, 9999)}",
        pct=f"{rng.randint(1, 35)}.{rng.randint(0, 99):02d}%",
        inr=f"Rs. {rng.randint(1, 99)},{rng.randint(10, 99)},000",
        inr_month=f"Rs {rng.randint(5, 90)},000 per month",
        lpa=f"{rng.randint(4, 40)} LPA",
    )


def complaint_texts(count: int, *, chars: int = 1500, seed: int = 0) -> list[str]:
    """``count`` texts of about ``chars`` characters each."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        parts = [_fill(rng.choice(_OPENERS), rng)]
        while sum(len(p) + 1 for p in parts) < chars:
            parts.append(_fill(rng.choice(_SENTENCES), rng))
        texts.append(" ".join(parts))
    return texts
